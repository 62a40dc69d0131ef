"""ipywidgets panels of the explorer, built on the engine, the analysis and the renderer."""
