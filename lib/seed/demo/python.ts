/** Python changes of the demo study: a retry decorator and a CSV export. */
import type { DemoChange } from "../types";
import { rate, source } from "./helpers";

export const RETRY_BACKOFF: DemoChange = {
  externalId: "py-retry-backoff",
  filePath: "src/httpkit/retry.py",
  language: "python",
  metadata: { repository: "acme/httpkit" },
  oldFile: source(`
"""Retry helpers for flaky network calls."""
import functools
import logging
import time

logger = logging.getLogger(__name__)


def retry(times=3, delay=1.0):
    """Call the wrapped function up to \`times\` times, sleeping \`delay\` seconds between attempts."""

    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            last_error = None
            for attempt in range(times):
                try:
                    return func(*args, **kwargs)
                except Exception as error:
                    last_error = error
                    logger.warning("attempt %d of %s failed: %s", attempt + 1, func.__name__, error)
                    time.sleep(delay)
            raise last_error

        return wrapper

    return decorator


def is_retryable_status(status_code):
    """5xx responses and 429 are worth retrying."""
    return status_code >= 500 or status_code == 429
`),
  newFile: source(`
"""Retry helpers for flaky network calls."""
import functools
import logging
import random
import time

logger = logging.getLogger(__name__)


def backoff_delays(times, base_delay, max_delay):
    """Exponential backoff with full jitter: one delay per retry (times - 1 values)."""
    for attempt in range(times - 1):
        ceiling = min(max_delay, base_delay * 2 ** attempt)
        yield random.uniform(0, ceiling)


def retry(times=3, base_delay=0.5, max_delay=8.0, retry_on=(ConnectionError, TimeoutError)):
    """Call the wrapped function up to \`times\` times, backing off exponentially between attempts.

    Only exceptions listed in \`retry_on\` are retried; anything else propagates at once.
    """
    if times < 1:
        raise ValueError("times must be at least 1")

    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            delays = backoff_delays(times, base_delay, max_delay)
            for attempt in range(1, times + 1):
                try:
                    return func(*args, **kwargs)
                except retry_on as error:
                    if attempt == times:
                        raise
                    delay = next(delays)
                    logger.warning(
                        "attempt %d/%d of %s failed (%s); retrying in %.2fs",
                        attempt, times, func.__name__, error, delay,
                    )
                    time.sleep(delay)

        return wrapper

    return decorator


def is_retryable_status(status_code):
    """5xx responses and 429 are worth retrying."""
    return status_code >= 500 or status_code == 429
`),
  pseudoReferences: [
    { key: "c1", kind: "CLAIM", source: "gpt-4o", text: "The `retry` decorator now waits an exponentially growing, randomly jittered delay between attempts instead of a fixed `delay`." },
    { key: "c2", kind: "CLAIM", source: "gpt-4o", text: "A new generator function `backoff_delays` computes the delays, each capped at `max_delay`." },
    { key: "c3", kind: "CLAIM", source: "gpt-4o", text: "The decorator now retries every exception raised by the wrapped function." },
    { key: "c4", kind: "CLAIM", source: "gpt-4o", text: "The wrapper no longer sleeps after the last failed attempt; it re-raises the error immediately." },
    { key: "i1", kind: "IMPLICATION", source: "gpt-4o", text: "Callers that pass the `delay` keyword argument will now get a TypeError, because the parameter was renamed to `base_delay`." },
    { key: "i2", kind: "IMPLICATION", source: "gpt-4o", text: "The change will lower the overall latency of requests when the server is under load." },
    { key: "s1", kind: "SMELL", source: "pylint", text: "R1710 (inconsistent-return-statements): in `wrapper`, either all return statements should return an expression, or none of them should." },
  ],
  reviews: [
    { system: "human", isReference: true, text: "Renaming `delay` to `base_delay` breaks existing callers such as `fetch_manifest(url, delay=2)`. Could we keep `delay` as a deprecated alias for one release?" },
    {
      system: "gpt-3.5",
      text: "Switching to exponential backoff with full jitter is a good improvement, and not sleeping after the final attempt removes a pointless delay. However, renaming `delay` to `base_delay` is a breaking change for existing callers; consider accepting `delay` as a deprecated alias. Also, `wrapper` has inconsistent return statements: add an explicit `raise` after the loop so the control flow is clear to readers and to pylint.",
    },
    { system: "codereviewer", text: "Why do we need `retry_on` here?" },
    {
      system: "llama3",
      text: "This change improves the retry decorator. It introduces a new helper function called `backoff_delays` which yields delays using exponential backoff with jitter, and the decorator now only retries on specific exceptions. Here are some suggestions:\n\n1. Consider adding type hints to the function signatures.\n2. Consider adding unit tests that mock `time.sleep` to verify the delays.\n3. The log message could include the exception type.\n\nOverall, the change looks good to me!",
    },
    { system: "magicoder", text: "`backoff_delays` is an implementation detail: rename it to `_backoff_delays` and add a test that no delay exceeds `max_delay`." },
    { system: "knn", text: "Please add a docstring for this function." },
    { system: "lstm", text: "i think this should be ` self . delay `" },
  ],
  work: {
    ann1: {
      claims: {
        c1: { code: "CORRECT" },
        c2: { code: "CORRECT" },
        c3: { code: "INCORRECT", errorType: "COMPREHENSION", note: "Only the exceptions in `retry_on` are retried; any other exception propagates at once." },
        c4: { code: "CORRECT" },
        i1: { code: "CORRECT" },
        i2: { code: "UNVERIFIABLE", note: "Nothing in the change measures latency." },
      },
      ratings: {
        human: rate(5, 2, 2, ["i1"]),
        "gpt-3.5": rate(5, 4, 4, ["c1", "c4", "i1", "s1"]),
        codereviewer: rate(1, 1, 1),
        llama3: rate(2, 3, 2, ["c1", "c2"]),
        magicoder: rate(4, 2, 2, [], ["c2"]),
        knn: rate(1, 1, 1),
        lstm: rate(1, 1, 1),
      },
      grades: { "gpt-3.5": 3, codereviewer: 1, llama3: 1, magicoder: 1, knn: 1, lstm: 1 },
      filters: {
        "gpt-3.5": { highQuality: true, justification: "Names a concrete breaking change (the renamed keyword) and a fix a test calling retry(delay=...) can check." },
        codereviewer: { highQuality: false, justification: "A question without an action item." },
        llama3: { highQuality: false, justification: "Generic advice (type hints, tests) rather than a problem in this change." },
        magicoder: { highQuality: true, justification: "A concrete rename and a checkable test for the max_delay cap." },
        knn: { highQuality: false, justification: "The function already has a docstring; nothing to act on." },
        lstm: { highQuality: false, justification: "Does not make sense for this code." },
      },
    },
    ann2: {
      claims: {
        c1: { code: "CORRECT" },
        c2: { code: "CORRECT", necessary: false, note: "Implementation detail already covered by c1." },
        c3: { code: "INCORRECT", errorType: "COMPREHENSION" },
        c4: { code: "CORRECT" },
        i1: { code: "CORRECT" },
        i2: { code: "INCORRECT", errorType: "REASONING", note: "Backoff adds waiting time; it cannot make a retried request faster." },
      },
      addedClaims: [
        { key: "a1", corrects: "c3", text: "Only exceptions listed in `retry_on` (ConnectionError and TimeoutError by default) are retried; any other exception propagates immediately." },
      ],
      ratings: {
        human: rate(5, 2, 3, ["i1"]),
        "gpt-3.5": rate(4, 4, 4, ["c1", "c4", "i1", "s1"]),
        codereviewer: rate(2, 2, 2, [], ["a1"]),
        llama3: rate(2, 2, 2, ["c1"], ["a1"]),
        magicoder: rate(2, 1, 1),
        knn: rate(1, 1, 1),
        lstm: rate(1, 1, 1),
      },
      grades: { "gpt-3.5": 4, codereviewer: 1, llama3: 2, magicoder: 1, knn: 1, lstm: 1 },
      filters: {
        "gpt-3.5": { highQuality: true, justification: "Points at the renamed parameter and asks for an alias; testable." },
        codereviewer: { highQuality: false, justification: "Only asks for clarification." },
        llama3: { highQuality: true, justification: "Asks for tests that mock time.sleep and check the delays, which is concrete." },
        magicoder: { highQuality: true, justification: "The max_delay cap can be checked by a unit test." },
        knn: { highQuality: false, justification: "A docstring exists already." },
        lstm: { highQuality: false, justification: "Unrelated to the change." },
      },
    },
  },
};

export const CSV_EXPORT: DemoChange = {
  externalId: "py-csv-export",
  filePath: "reports/export.py",
  language: "python",
  metadata: { repository: "acme/billing-reports" },
  oldFile: source(`
"""Export report rows to CSV files."""
import os

COLUMNS = ["id", "customer", "amount", "currency", "created_at"]


def format_amount(value):
    return "%.2f" % value


def row_to_line(row):
    values = []
    for column in COLUMNS:
        value = row.get(column)
        if column == "amount":
            value = format_amount(value)
        values.append(str(value))
    return ",".join(values)


def export_rows(rows, path):
    """Write rows (a list of dicts) to \`path\`, one line per row, with a header line."""
    directory = os.path.dirname(path)
    if directory and not os.path.exists(directory):
        os.makedirs(directory)
    lines = [",".join(COLUMNS)]
    for row in rows:
        lines.append(row_to_line(row))
    f = open(path, "w")
    f.write("\\n".join(lines))
    f.close()
    return len(lines) - 1
`),
  newFile: source(`
"""Export report rows to CSV files."""
import csv
import os

COLUMNS = ["id", "customer", "amount", "currency", "created_at"]


def format_amount(value):
    return "" if value is None else "%.2f" % value


def normalize_row(row, columns):
    """The row's values for \`columns\` as strings; missing values become empty cells."""
    cells = {}
    for column in columns:
        value = row.get(column)
        if column == "amount":
            cells[column] = format_amount(value)
        else:
            cells[column] = "" if value is None else str(value)
    return cells


def export_rows(rows, path, columns=COLUMNS):
    """Write rows (an iterable of dicts) to \`path\` as UTF-8 CSV with a header line.

    Values containing commas, quotes or newlines are quoted by the csv module.
    Returns the number of data rows written.
    """
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    count = 0
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow(normalize_row(row, columns))
            count += 1
    return count
`),
  pseudoReferences: [
    { key: "c1", kind: "CLAIM", source: "gpt-4o", text: "The hand-written comma joining was replaced by `csv.DictWriter`, so values containing commas or quotes are now escaped correctly." },
    { key: "c2", kind: "CLAIM", source: "gpt-4o", text: "`row_to_line` was removed and replaced by `normalize_row`, which turns `None` values into empty strings." },
    { key: "c3", kind: "CLAIM", source: "gpt-4o", text: "The file is now opened in a `with` block, so it is closed even when writing a row fails." },
    { key: "c4", kind: "CLAIM", source: "gpt-4o", text: "`export_rows` now returns the number of lines written, including the header line." },
    { key: "i1", kind: "IMPLICATION", source: "gpt-4o", text: "Because `rows` may now be any iterable, large exports can be streamed from a database cursor without building a list in memory." },
    { key: "i2", kind: "IMPLICATION", source: "gpt-4o", text: "Spreadsheet users may see garbled non-ASCII characters, because the file is written without a byte order mark." },
    { key: "s1", kind: "SMELL", source: "pylint", text: "W0102 (dangerous-default-value): dangerous default value COLUMNS (builtins.list) as argument of `export_rows`." },
  ],
  reviews: [
    { system: "human", isReference: true, text: "`columns=COLUMNS` shares the module-level list as a default. If a caller ever mutates it, every later export changes. Please use a tuple or `None`." },
    { system: "gpt-3.5", text: "Using `csv.DictWriter` fixes the quoting of commas and quotes in customer names, and the `with` block guarantees that the file is closed. Consider making `COLUMNS` a tuple, since it is used as a default argument value." },
    { system: "codereviewer", text: "nit: `exist_ok=True` needs Python 3.2 or later." },
    { system: "llama3", text: "The code change refactors the CSV export to use the csv module. This is a good change because it handles quoting. You may also want to add logging and error handling around the file operations, and write unit tests for `normalize_row`." },
    { system: "codellama", text: "`format_amount` should use an f-string instead of `%` formatting for readability." },
    { system: "knn", text: "Can we add a test for this?" },
  ],
  work: {
    ann1: {
      claims: {
        c1: { code: "CORRECT" },
        c2: { code: "CORRECT" },
        c3: { code: "CORRECT" },
        c4: { code: "INCORRECT", errorType: "COMPREHENSION", note: "It returns the number of data rows, as before." },
        i1: { code: "CORRECT" },
        i2: { code: "UNVERIFIABLE" },
      },
      grades: { "gpt-3.5": 3, codereviewer: 1, llama3: 2, codellama: 1, knn: 1 },
    },
    ann2: {
      claims: {
        c1: { code: "CORRECT" },
        c2: { code: "CORRECT" },
        c3: { code: "CORRECT" },
      },
    },
  },
};
