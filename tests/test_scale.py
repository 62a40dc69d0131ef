"""Sampling on a cluster: a Dask distributed client's executor gives the games of one process."""

from distributed import Client, LocalCluster

from guyenne_explore.engine import Position
from guyenne_explore.analysis.api import analyse


def test_local_dask_cluster_gives_the_same_results():
    p = Position.start("advanced")
    alone_fast = analyse(p, method="sample", games=30_000, seed=3)
    alone_engine = analyse(p, ("heuristic", "uniform"), method="sample", games=40, seed=3)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        executor = client.get_executor()
        on_cluster_fast = analyse(p, method="sample", games=30_000, seed=3, executor=executor)
        on_cluster_engine = analyse(p, ("heuristic", "uniform"), method="sample", games=40, seed=3,
                                    executor=executor)
    assert on_cluster_fast.samples == alone_fast.samples
    assert on_cluster_engine.samples == alone_engine.samples
    assert on_cluster_fast.to_json()["win"] == alone_fast.to_json()["win"]
