"""The fast path: compiled uniform-random games (:mod:`.rollout`) and factorised exact endgames
(:mod:`.endgame`).  Both answer exactly what the engine answers; the analysis picks them where
they apply and uses the engine elsewhere."""
