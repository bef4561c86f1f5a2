/**
 * Known solutions of one exercise (read scores, report mean, median and a histogram) for the tests of
 * the similarity report: a starter, an original, a disguised copy of it and two honest solutions.
 */

export const STARTER = `import sys


def read_scores(lines):
    """Return the scores (integers) found in lines."""
    pass


def main():
    lines = sys.stdin.read().splitlines()
    scores = read_scores(lines)
    print(report(scores))


if __name__ == "__main__":
    main()
`;

export const ORIGINAL = `import sys


def read_scores(lines):
    """Return the scores (integers) found in lines."""
    scores = []
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        value = int(line)
        if value < 0 or value > 100:
            raise ValueError("score out of range: " + line)
        scores.append(value)
    return scores


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2 == 1:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def histogram(scores, width=10):
    bins = [0] * (100 // width + 1)
    for score in scores:
        bins[score // width] += 1
    rows = []
    for index, count in enumerate(bins):
        low = index * width
        rows.append(f"{low:3d}-{low + width - 1:3d} " + "*" * count)
    return "\\n".join(rows)


def report(scores):
    if not scores:
        return "no scores"
    mean = sum(scores) / len(scores)
    lines = ["n = %d" % len(scores), "mean = %.2f" % mean, "median = %s" % median(scores)]
    lines.append(histogram(scores))
    return "\\n".join(lines)


def main():
    lines = sys.stdin.read().splitlines()
    scores = read_scores(lines)
    print(report(scores))


if __name__ == "__main__":
    main()
`;

/** ORIGINAL with every name changed, other messages, comments added and the functions reordered. */
export const DISGUISED_COPY = `import sys


def summary(marks):
    # build the summary text
    if not marks:
        return "nothing to report"
    avg = sum(marks) / len(marks)
    out = ["count: %d" % len(marks), "average: %.2f" % avg, "middle: %s" % mid_value(marks)]
    out.append(bar_chart(marks))
    return "\\n".join(out)


def bar_chart(marks, step=10):
    buckets = [0] * (100 // step + 1)
    for m in marks:
        buckets[m // step] += 1
    result = []
    for i, c in enumerate(buckets):
        start = i * step
        result.append(f"{start:3d}-{start + step - 1:3d} " + "#" * c)
    return "\\n".join(result)


def mid_value(data):
    s = sorted(data)
    half = len(s) // 2
    if len(s) % 2 == 1:
        return s[half]
    return (s[half - 1] + s[half]) / 2


def read_scores(text_lines):
    """Return the scores (integers) found in lines."""
    marks = []
    for t in text_lines:
        t = t.strip()
        if not t or t.startswith("#"):
            continue
        v = int(t)
        if v < 0 or v > 100:
            raise ValueError("bad mark " + t)
        marks.append(v)
    return marks


def main():
    lines = sys.stdin.read().splitlines()
    scores = read_scores(lines)
    print(report(scores))


def report(scores):
    return summary(scores)


if __name__ == "__main__":
    main()
`;

/** An honest solution written another way: a dictionary of counts, statistics module, while loops. */
export const HONEST_A = `import sys
import statistics


def read_scores(lines):
    """Return the scores (integers) found in lines."""
    return [int(x) for x in lines if x.strip() and not x.strip().startswith("#")]


def report(scores):
    if len(scores) == 0:
        return "no scores"
    counts = {}
    for s in scores:
        key = min(s // 10, 10)
        counts[key] = counts.get(key, 0) + 1
    text = "n = " + str(len(scores)) + "\\n"
    text += "mean = " + format(statistics.mean(scores), ".2f") + "\\n"
    text += "median = " + str(statistics.median(scores)) + "\\n"
    k = 0
    while k <= 10:
        text += str(k * 10).rjust(3) + "-" + str(k * 10 + 9).rjust(3) + " " + "*" * counts.get(k, 0)
        if k < 10:
            text += "\\n"
        k += 1
    return text


def main():
    lines = sys.stdin.read().splitlines()
    scores = read_scores(lines)
    print(report(scores))


if __name__ == "__main__":
    main()
`;

export const HONEST_B = `import sys


def read_scores(lines):
    """Return the scores (integers) found in lines."""
    result = list()
    for raw in lines:
        raw = raw.split("#")[0].strip()
        if raw == "":
            continue
        number = int(raw)
        assert 0 <= number <= 100, number
        result.append(number)
    return result


class Stats:
    def __init__(self, data):
        self.data = sorted(data)

    def mean(self):
        total = 0
        for x in self.data:
            total += x
        return total / len(self.data)

    def median(self):
        n = len(self.data)
        return self.data[n // 2] if n % 2 else (self.data[n // 2 - 1] + self.data[n // 2]) / 2


def report(scores):
    if not scores:
        return "no scores"
    st = Stats(scores)
    out = "n = {}\\nmean = {:.2f}\\nmedian = {}".format(len(scores), st.mean(), st.median())
    for lo in range(0, 101, 10):
        out += "\\n{:3d}-{:3d} {}".format(lo, lo + 9, "*" * len([x for x in scores if lo <= x < lo + 10]))
    return out


def main():
    lines = sys.stdin.read().splitlines()
    scores = read_scores(lines)
    print(report(scores))


if __name__ == "__main__":
    main()
`;
