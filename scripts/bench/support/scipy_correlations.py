"""Times scipy.stats.spearmanr and kendalltau on the bench's pairs (issue 15 item 7).

Reads n float64 x values then n y values (little-endian) from the file named first; prints one
JSON object: per function the statistic, p-value and the medians of CPU (time.process_time)
and wall milliseconds over the runs named second.
"""
import json
import statistics
import sys
import time

import numpy as np
from scipy import stats

data = np.fromfile(sys.argv[1], dtype="<f8")
runs = int(sys.argv[2])
x, y = data[: len(data) // 2], data[len(data) // 2 :]
out = {"scipy": __import__("scipy").__version__}
for name, fn in (("spearman", stats.spearmanr), ("kendall", stats.kendalltau)):
    fn(x, y)
    wall, cpu = [], []
    for _ in range(runs):
        c0, t0 = time.process_time(), time.perf_counter()
        r = fn(x, y)
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - t0) * 1000)
    out[name] = {"statistic": float(r.statistic), "pValue": float(r.pvalue), "cpuMs": statistics.median(cpu), "wallMs": statistics.median(wall)}
print(json.dumps(out))
