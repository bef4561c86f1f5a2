/**
 * Plausible Python submissions of one exercise for `bench:similarity`: sales records read from stdin,
 * totals per region, the best seller and a table. Each student picks one of three ways to write each of
 * eight functions, names of their own, an order, comments and blank lines; a few copy a classmate and
 * rename everything. About 80 lines each; the same seed gives the same corpus.
 */

/** mulberry32: small, fast and deterministic. */
export function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ['x', 'item', 'row', 'rec', 'entry', 'data', 'value', 'v', 'r', 'e', 'thing', 'line_data'];
const COLLECTIONS = ['rows', 'records', 'items', 'entries', 'sales', 'result', 'out', 'lst', 'values'];

/** `$A`/`$B` become a student's element names, `$L` a collection name. */
const FUNCTIONS: string[][] = [
  [
    `def parse_line(line):\n    parts = line.split(",")\n    name = parts[0].strip()\n    region = parts[1].strip()\n    amount = float(parts[2])\n    return name, region, amount\n`,
    `def parse_line(text):\n    $A, $B, amount = [p.strip() for p in text.split(",")]\n    return $A, $B, float(amount)\n`,
    `def parse_line(s):\n    fields = s.strip().split(",")\n    if len(fields) != 3:\n        raise ValueError("bad line: " + s)\n    return (fields[0], fields[1], float(fields[2]))\n`,
  ],
  [
    `def read_records(lines):\n    $L = []\n    for line in lines:\n        if line.strip() == "":\n            continue\n        $L.append(parse_line(line))\n    return $L\n`,
    `def read_records(lines):\n    return [parse_line($A) for $A in lines if $A.strip()]\n`,
    `def read_records(lines):\n    $L = []\n    i = 0\n    while i < len(lines):\n        $A = lines[i]\n        i += 1\n        if not $A.strip() or $A.startswith("#"):\n            continue\n        $L.append(parse_line($A))\n    return $L\n`,
  ],
  [
    `def totals_by_region($L):\n    totals = {}\n    for name, region, amount in $L:\n        if region not in totals:\n            totals[region] = 0\n        totals[region] += amount\n    return totals\n`,
    `def totals_by_region($L):\n    totals = dict()\n    for $A in $L:\n        totals[$A[1]] = totals.get($A[1], 0) + $A[2]\n    return totals\n`,
    `def totals_by_region($L):\n    regions = sorted(set(r[1] for r in $L))\n    return {g: sum(r[2] for r in $L if r[1] == g) for g in regions}\n`,
  ],
  [
    `def best_seller($L):\n    best = None\n    for $A in $L:\n        if best is None or $A[2] > best[2]:\n            best = $A\n    return best\n`,
    `def best_seller($L):\n    if not $L:\n        return None\n    return max($L, key=lambda $A: $A[2])\n`,
    `def best_seller($L):\n    ordered = sorted($L, key=lambda $A: -$A[2])\n    if len(ordered) == 0:\n        return None\n    return ordered[0]\n`,
  ],
  [
    `def average($L):\n    if len($L) == 0:\n        return 0.0\n    total = 0.0\n    for $A in $L:\n        total += $A[2]\n    return total / len($L)\n`,
    `def average($L):\n    return sum($A[2] for $A in $L) / len($L) if $L else 0.0\n`,
    `def average($L):\n    amounts = [$A[2] for $A in $L]\n    if not amounts:\n        return 0.0\n    mean = sum(amounts) / len(amounts)\n    return round(mean, 2)\n`,
  ],
  [
    `def format_table(totals):\n    lines = []\n    width = max([len(k) for k in totals] + [6])\n    lines.append("Region".ljust(width) + " | Total")\n    lines.append("-" * (width + 10))\n    for region in sorted(totals):\n        lines.append(region.ljust(width) + " | " + "%.2f" % totals[region])\n    return "\\n".join(lines)\n`,
    `def format_table(totals):\n    out = "{:<10} {:>10}\\n".format("Region", "Total")\n    for $B, amount in sorted(totals.items(), key=lambda kv: -kv[1]):\n        out += "{:<10} {:>10.2f}\\n".format($B, amount)\n    return out.rstrip()\n`,
    `def format_table(totals):\n    $L = ["Region\\tTotal"]\n    keys = list(totals.keys())\n    keys.sort()\n    for k in keys:\n        $L.append(f"{k}\\t{totals[k]:.2f}")\n    return "\\n".join($L)\n`,
  ],
  [
    `def count_by_name($L):\n    counts = {}\n    for $A in $L:\n        name = $A[0]\n        if name in counts:\n            counts[name] += 1\n        else:\n            counts[name] = 1\n    return counts\n`,
    `def count_by_name($L):\n    counts = dict()\n    for $A in $L:\n        counts[$A[0]] = counts.get($A[0], 0) + 1\n    return counts\n`,
    `def count_by_name($L):\n    names = [$A[0] for $A in $L]\n    return {n: names.count(n) for n in set(names)}\n`,
  ],
  [
    `def main():\n    lines = sys.stdin.read().splitlines()\n    $L = read_records(lines)\n    print(len(count_by_name($L)), "sellers")\n    print(format_table(totals_by_region($L)))\n    best = best_seller($L)\n    if best is not None:\n        print("Best:", best[0], best[2])\n    print("Average: %.2f" % average($L))\n`,
    `def main():\n    $L = read_records([l for l in sys.stdin])\n    totals = totals_by_region($L)\n    print(format_table(totals))\n    top = best_seller($L)\n    print(f"Best: {top[0]} {top[2]}" if top else "Best: none")\n    print(f"Average: {average($L):.2f}")\n`,
    `def main():\n    data = sys.stdin.read().strip().split("\\n")\n    $L = read_records(data)\n    report = []\n    report.append(format_table(totals_by_region($L)))\n    b = best_seller($L)\n    report.append("Best: " + (b[0] + " " + str(b[2]) if b else "none"))\n    report.append("Average: " + str(average($L)))\n    print("\\n".join(report))\n`,
  ],
];

const DOCS = ['Helper for the report.', 'See the exercise.', 'Returns the value asked for.'];
const COMMENTS = ['# TODO: check this', '# helper', '# computes the result', '# see the statement', '# ok'];

export const STARTER = `import sys


def parse_line(line):
    """Return (name, region, amount) of one CSV line."""
    pass


def main():
    lines = sys.stdin.read().splitlines()


if __name__ == "__main__":
    main()
`;

function pick<T>(next: () => number, from: readonly T[]): T {
  return from[Math.floor(next() * from.length)]!;
}

/** One honest student's solution. */
function writeSolution(next: () => number): string {
  const a = pick(next, NAMES);
  const b = pick(
    next,
    NAMES.filter((n) => n !== a),
  );
  const l = pick(next, COLLECTIONS);
  const blocks = FUNCTIONS.map((alternatives) =>
    pick(next, alternatives).replaceAll('$A', a).replaceAll('$B', b).replaceAll('$L', l),
  );
  // main stays last; the helpers come in the student's own order.
  const helpers = blocks.slice(0, -1).sort(() => next() - 0.5);
  const parts = [...helpers, blocks.at(-1) ?? ''].map((block) => {
    const lines = block.split('\n');
    if (next() < 0.6 && !block.startsWith('def main')) lines.splice(1, 0, `    """${pick(next, DOCS)}"""`);
    const commented = lines.flatMap((line) =>
      next() < 0.12 && line.trim() !== '' ? [line.replace(/\S.*$/, pick(next, COMMENTS)), line] : [line],
    );
    return commented.join('\n');
  });
  const header = next() < 0.4 ? '# Sales report, exercise 3\n' : '';
  return `${header}import sys\n\n\n${parts.join('\n\n')}\n\nif __name__ == "__main__":\n    main()\n`;
}

/** Every name of a solution swapped for another one: what a copier does. */
function disguise(text: string, next: () => number): string {
  let out = text;
  for (const name of [...NAMES, ...COLLECTIONS]) {
    out = out.replace(new RegExp(`\\b${name}\\b`, 'g'), `${name}_${Math.floor(next() * 90 + 10)}`);
  }
  return out.replace(/# .*/g, '# mine');
}

/** `count` submissions; one in twenty copies an earlier classmate and renames its names. */
export function generateSubmissions(count: number, seed = 39): string[] {
  const next = random(seed);
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    out.push(n > 10 && next() < 0.05 ? disguise(out[Math.floor(next() * n)]!, next) : writeSolution(next));
  }
  return out;
}
