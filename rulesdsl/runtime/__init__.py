"""The expression runtime: typed closures compiled from parsed expressions, and the
environments they run in. Below the model and the engines; above the language."""
