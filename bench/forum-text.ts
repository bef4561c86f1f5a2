// Forum posts for `npm run bench:forum`: titles and Markdown bodies drawn from a small bank of
// English and Japanese sentences of a programming course, so the search index holds what a real
// course's would — a few very common words ("python", "リスト"), many medium ones, some rare ones —
// and searches in both languages have realistic work to do. Deterministic (seeded), so runs compare.

const EN_TITLES = [
  'Question about list comprehensions',
  'How do I sort a dictionary by value?',
  'Assignment 3: the last test fails',
  'Why is my recursion so slow?',
  'Difference between a list and a tuple',
  'IndexError when reading the input file',
  'Is binary search always faster than a linear scan?',
  'Python version used by the grader',
  'Help with the dynamic programming exercise',
  'What does "amortized O(1)" mean?',
  'Unexpected output from print with end=""',
  'How are strings compared in Python?',
  'Tips for the midterm exam',
  'Stack overflow in the depth-first search',
  'Can we use the collections module?',
  'Hash tables and collisions',
] as const;

const JA_TITLES = [
  'リスト内包表記について質問です',
  '課題3のテストが通りません',
  '辞書を値でソートする方法',
  '再帰関数が遅い理由を教えてください',
  'タプルとリストの違いは何ですか',
  'ファイル読み込みでエラーが出ます',
  '二分探索の計算量について',
  '動的計画法の演習が分かりません',
  '中間試験の範囲を確認したいです',
  '深さ優先探索で再帰の上限に達しました',
  '文字列の比較はどう動いていますか',
  'ハッシュ表の衝突について',
  '採点システムの Python のバージョン',
  '提出したのに点数が表示されません',
] as const;

const EN_SENTENCES = [
  'I wrote a list comprehension but it returns an empty list.',
  'My Python code works on my laptop but fails on the grader.',
  'The recursion depth exceeded the limit when the input was large.',
  'I tried sorting the dictionary with sorted() and a lambda key.',
  'Binary search needs the list to be sorted first.',
  'The time complexity of my solution is O(n log n), is that enough?',
  'Could someone explain how the hash function spreads the keys?',
  'I get an IndexError on the last line of the input.',
  'Memoization made the Fibonacci function much faster.',
  'The lecture slides show a different algorithm for merging.',
  'Is it allowed to import itertools for this assignment?',
  'Python strings are immutable, so every concatenation makes a new object.',
  'A generator expression uses less memory than a list comprehension.',
  'I replaced the nested loop with a set lookup and it passed.',
  'The test expects a trailing newline at the end of the output.',
  'Dijkstra with a heap runs in O((V + E) log V).',
  'Breadth-first search finds the shortest path in an unweighted graph.',
  'What is the difference between append and extend?',
  'Thanks, that solved it!',
  'I have the same problem with the third test case.',
  'Using enumerate is cleaner than range(len(items)).',
  'The dynamic programming table only needs two rows at a time.',
  'Quick sort is fast on average but quadratic in the worst case.',
  'Please check the office hours on Thursday.',
] as const;

const JA_SENTENCES = [
  'リスト内包表記を使うと空のリストが返ってきます。',
  '手元の Python では動くのに採点システムでは失敗します。',
  '入力が大きいと再帰の深さの上限を超えてしまいます。',
  'sorted() と lambda を使って辞書をソートしてみました。',
  '二分探索を使う前にリストをソートする必要があります。',
  'この解法の計算量は O(n log n) ですが十分でしょうか。',
  'ハッシュ関数がキーをどのように分散させるのか教えてください。',
  '入力の最後の行で IndexError が発生します。',
  'メモ化でフィボナッチ関数がとても速くなりました。',
  '講義スライドではマージの方法が違うようです。',
  'この課題で itertools を使ってもよいですか。',
  '文字列は変更できないので、連結するたびに新しいオブジェクトが作られます。',
  'ジェネレータ式はリスト内包表記よりメモリを使いません。',
  '二重ループを集合の検索に置き換えたら通りました。',
  'テストは出力の最後に改行があることを期待しています。',
  'ヒープを使ったダイクストラ法の計算量を確認したいです。',
  '幅優先探索で重みのないグラフの最短経路が求まります。',
  'append と extend の違いは何ですか。',
  'ありがとうございます、解決しました！',
  '三つ目のテストケースで同じ問題が起きています。',
  'range(len(items)) より enumerate を使う方が読みやすいです。',
  '動的計画法の表は二行分だけあれば足ります。',
  'クイックソートは平均的には速いですが、最悪の場合は二乗になります。',
  '木曜日のオフィスアワーで質問してください。',
] as const;

const CODE_BLOCKS = [
  '```python\nsquares = [x * x for x in range(10) if x % 2 == 0]\nprint(squares)\n```',
  '```python\ndef fib(n, memo={}):\n    if n < 2:\n        return n\n    if n not in memo:\n        memo[n] = fib(n - 1) + fib(n - 2)\n    return memo[n]\n```',
  '```python\nranking = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)\n```',
  '```\nTraceback (most recent call last):\n  File "main.py", line 12, in <module>\nIndexError: list index out of range\n```',
] as const;

/** mulberry32: a small fast PRNG, seeded so every run generates the same forum. */
export function makeRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = () => number;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** About half the posts are in Japanese, a third in English, the rest mix both (as many do here). */
function language(random: Random): 'en' | 'ja' | 'mixed' {
  const x = random();
  return x < 0.5 ? 'ja' : x < 0.83 ? 'en' : 'mixed';
}

function sentences(random: Random, lang: 'en' | 'ja' | 'mixed', count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const bank =
      lang === 'mixed'
        ? i % 2 === 0
          ? JA_SENTENCES
          : EN_SENTENCES
        : lang === 'ja'
          ? JA_SENTENCES
          : EN_SENTENCES;
    return pick(random, bank);
  });
}

/** A rare subject (about 3 posts in 1,000), so searches also meet words with few matches. */
const RARE = {
  en: 'Topological sort only works on a DAG.',
  ja: 'トポロジカルソートは DAG でしか使えません。',
} as const;

function body(random: Random, lang: 'en' | 'ja' | 'mixed', min: number, max: number): string {
  const count = min + Math.floor(random() * (max - min + 1));
  const parts = sentences(random, lang, count);
  if (random() < 0.003) parts.push(lang === 'en' ? RARE.en : RARE.ja);
  // Markdown: a paragraph break now and then, a code block in about one post in six.
  const text = parts.map((s, i) => (i > 0 && i % 3 === 0 ? `\n\n${s}` : s)).join(lang === 'en' ? ' ' : '');
  return random() < 0.17 ? `${text}\n\n${pick(random, CODE_BLOCKS)}` : text;
}

export function topicText(random: Random): { title: string; content: string } {
  const lang = language(random);
  const title = pick(
    random,
    lang === 'en' ? EN_TITLES : lang === 'ja' ? JA_TITLES : [...EN_TITLES, ...JA_TITLES],
  );
  return { title, content: body(random, lang, 2, 6) };
}

export function commentText(random: Random): string {
  return body(random, language(random), 1, 3);
}

export function announcementText(random: Random, n: number): { title: string; content: string } {
  const ja = random() < 0.5;
  return ja
    ? {
        title: `お知らせ: 第${n}回の課題について`,
        content: `第${n}回の課題を公開しました。締め切りは来週の金曜日です。${pick(random, JA_SENTENCES)}`,
      }
    : {
        title: `Announcement: assignment ${n}`,
        content: `Assignment ${n} is out; it is due next Friday. ${pick(random, EN_SENTENCES)}`,
      };
}
