"""Fuzzing hostile rule files (issue 9): mutations, the property checked, the long run."""
