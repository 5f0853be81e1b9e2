"""Peers that benchmarks/run.py measures our engines against, written here (no rules layer).

handwritten_doudizhu  Dou Dizhu hard-coded in plain Python on rank-count vectors: the
                      calibration peer (what plain Python reaches without a rules layer).
"""
