"""Times scipy.stats.spearmanr and kendalltau on the bench's pairs, one run per request, so that
the bench can interleave them with its own runs.

Reads n float64 x values then n y values (little-endian) from the file named first; then, for
each line "spearman" or "kendall" on stdin, runs that function once and prints one JSON line: the
statistic, the p-value and the run's CPU (time.process_time) and wall milliseconds. The first
line printed names scipy's version.
"""
import json
import sys
import time

import numpy as np
from scipy import stats

data = np.fromfile(sys.argv[1], dtype="<f8")
x, y = data[: len(data) // 2], data[len(data) // 2 :]
functions = {"spearman": stats.spearmanr, "kendall": stats.kendalltau}
print(json.dumps({"scipy": __import__("scipy").__version__}), flush=True)
for line in sys.stdin:
    fn = functions[line.strip()]
    c0, t0 = time.process_time(), time.perf_counter()
    r = fn(x, y)
    cpu, wall = (time.process_time() - c0) * 1000, (time.perf_counter() - t0) * 1000
    print(json.dumps({"statistic": float(r.statistic), "pValue": float(r.pvalue), "cpuMs": cpu, "wallMs": wall}), flush=True)
