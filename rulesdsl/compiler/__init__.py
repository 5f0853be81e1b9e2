"""Compiling rule files into rulesets: the language layer reads them, the model holds
them, and each family's play section is read through that family's contract."""
