import { beforeAll, describe, expect, it } from 'vitest';
import { loadPythonHighlighting, mayHavePythonFence } from './code-highlight.ts';
import { highlightPythonFences, renderMarkdown, sanitizeHtml } from './markdown.ts';

function handlerAttributes(root: HTMLElement): string[] {
  return [...root.querySelectorAll('*')].flatMap((element) =>
    element.getAttributeNames().filter((name) => name.toLowerCase().startsWith('on')),
  );
}

function dom(html: string): HTMLElement {
  const container = document.createElement('div');
  container.innerHTML = html;
  return container;
}

describe('renderMarkdown', () => {
  it('renders Markdown', () => {
    const root = dom(renderMarkdown('# Sum\n\nRead **two** numbers.\n\n```python\nprint(1)\n```'));
    // Headings start at h3, under the page's h1 and the section's h2.
    expect(root.querySelector('h1')).toBeNull();
    expect(root.querySelector('h3')?.textContent).toBe('Sum');
    expect(root.querySelector('strong')?.textContent).toBe('two');
    expect(root.querySelector('pre code')?.textContent).toBe('print(1)\n');
  });

  it('never lets a script element through', () => {
    const root = dom(renderMarkdown('Hi <script>alert(1)</script>\n\n<script>alert(2)</script>'));
    expect(root.querySelector('script')).toBeNull();
    // Raw HTML is shown as text, not run.
    expect(root.textContent).toContain('<script>alert(1)</script>');
  });

  it('drops event-handler attributes', () => {
    const html = renderMarkdown('<img src=x onerror="alert(1)">\n\n![x](y.png "t\\" onerror=\\"alert(1)")');
    expect(handlerAttributes(dom(html))).toEqual([]);
  });

  it('sanitises HTML even if the parser let some through', () => {
    const html = sanitizeHtml(
      '<img src=x onerror="alert(1)"><svg onload="alert(1)"></svg><a href="javascript:alert(1)">x</a><script>alert(1)</script><p style="color:red" onclick="x()">ok</p>',
    );
    const root = dom(html);
    expect(handlerAttributes(root)).toEqual([]);
    expect(root.querySelector('script')).toBeNull();
    expect(root.querySelector('a')?.getAttribute('href') ?? null).toBeNull();
    expect(root.querySelector('p')?.getAttribute('style')).toBeNull();
    expect(root.querySelector('p')?.textContent).toBe('ok');
  });

  it('removes javascript: links and opens the others in a new tab without the opener', () => {
    const root = dom(
      renderMarkdown(
        '[bad](javascript:alert(1)) [bad2](JaVaScRiPt:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=) [good](https://example.com/a)',
      ),
    );
    const hrefs = [...root.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs.filter((href) => href !== null && /^\s*(javascript|data):/i.test(href))).toEqual([]);
    const good = [...root.querySelectorAll('a')].find((a) => a.textContent === 'good');
    expect(good?.getAttribute('href')).toBe('https://example.com/a');
    expect(good?.getAttribute('target')).toBe('_blank');
    expect(good?.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('links bare URLs', () => {
    const root = dom(renderMarkdown('See https://docs.python.org/3/ for help.'));
    expect(root.querySelector('a')?.getAttribute('href')).toBe('https://docs.python.org/3/');
  });
});

describe('code highlighting', () => {
  beforeAll(loadPythonHighlighting);

  it('shows Python plain when asked to, as before its parser has loaded', () => {
    const code = dom(renderMarkdown('```python\ndef f(): pass\n```', { python: false })).querySelector(
      'pre code',
    )!;
    expect(code.textContent).toBe('def f(): pass\n');
    expect(code.querySelector('span')).toBeNull();
  });

  it('knows which Markdown has a fence that may be Python', () => {
    expect(mayHavePythonFence('```\nx = 1\n```')).toBe(true);
    expect(mayHavePythonFence('Text\n\n  ```Python3\nx = 1\n```')).toBe(true);
    expect(mayHavePythonFence('~~~py\nx = 1\n~~~')).toBe(true);
    expect(mayHavePythonFence('```js\nlet x = 1\n```')).toBe(false);
    expect(mayHavePythonFence('- item\n\n  ```\n  x = 1\n  ```')).toBe(true);
    expect(mayHavePythonFence('> ```python\n> x = 1')).toBe(true);
    expect(mayHavePythonFence('Inline `code` and ``more``.')).toBe(false);
    expect(mayHavePythonFence('    indented = 1')).toBe(false);
  });

  it('highlights fenced Python, and unlabelled fences as Python', () => {
    for (const fence of ['```python', '```']) {
      const root = dom(renderMarkdown(`${fence}\ndef add(a, b):\n    return a + 1  # sum\n\`\`\``));
      const code = root.querySelector('pre code')!;
      expect(code.textContent).toBe('def add(a, b):\n    return a + 1  # sum\n');
      const classes = [...code.querySelectorAll('span')].map((span) => span.className);
      expect(classes).toEqual(expect.arrayContaining(['tok-keyword', 'tok-number', 'tok-comment']));
      expect(code.querySelector('.tok-keyword')?.textContent).toBe('def');
    }
  });

  it('highlights the Python fences of plain Markdown in place, leaving every other element', () => {
    const root = dom(
      renderMarkdown('Intro\n\n```python\nx = 1\n```\n\n```js\nlet y\n```\n\n```text\nif z\n```', {
        python: false,
      }),
    );
    const paragraph = root.querySelector('p');
    const [python, js, text] = [...root.querySelectorAll('pre code')];
    const jsMarkup = js!.innerHTML;
    expect(python!.querySelector('span')).toBeNull();
    highlightPythonFences(root);
    expect(root.querySelector('p')).toBe(paragraph);
    expect(python!.querySelector('.tok-variableName')?.textContent).toBe('x');
    expect(python!.textContent).toBe('x = 1\n');
    expect(js!.innerHTML).toBe(jsMarkup);
    expect(text!.querySelector('span')).toBeNull();
    // A second call finds nothing left to do.
    const highlighted = python!.innerHTML;
    highlightPythonFences(root);
    expect(python!.innerHTML).toBe(highlighted);
  });

  it('highlights a few other languages and leaves unknown ones plain', () => {
    const js = dom(renderMarkdown('```js\nconst s = "<b>"; // note\n```'));
    expect(js.querySelector('.tok-keyword')?.textContent).toBe('const');
    expect(js.querySelector('.tok-string')?.textContent).toBe('"<b>"');
    expect(js.querySelector('.tok-comment')?.textContent).toBe('// note');
    expect(js.querySelector('b')).toBeNull();
    const plain = dom(renderMarkdown('```text\nif x\n```'));
    expect(plain.querySelector('span')).toBeNull();
    expect(plain.querySelector('pre code')?.textContent).toBe('if x\n');
  });

  it('keeps code inside a block as text, never markup', () => {
    const root = dom(
      renderMarkdown('```python\nx = "<script>alert(1)</script>"\n"<img src=x onerror=alert(1)>"\n```'),
    );
    expect(root.querySelector('script')).toBeNull();
    expect(root.querySelector('img')).toBeNull();
    expect(root.textContent).toContain('<script>alert(1)</script>');
  });
});

describe('stored XSS in posts renders inert', () => {
  const PAYLOADS = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '[click](javascript:alert(1))',
    '[click](JAVASCRIPT:alert(1))',
    '[click](  javascript:alert(1))',
    '<svg onload=alert(1)>',
    '<p style="background:url(javascript:alert(1))">styled</p>',
    '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '![img](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
    '<iframe src="javascript:alert(1)"></iframe>',
    '![x](x" onerror="alert(1))',
    '```"><script>alert(1)</script>\ncode\n```',
    '```python" onmouseover="alert(1)\nx = 1\n```',
  ];

  it.each(PAYLOADS)('%s', (payload) => {
    const root = dom(renderMarkdown(`Before\n\n${payload}\n\nAfter`));
    expect(root.querySelectorAll('script, iframe, svg, style, object, embed, form')).toHaveLength(0);
    expect(handlerAttributes(root)).toEqual([]);
    for (const element of root.querySelectorAll('*')) {
      expect(element.getAttribute('style')).toBeNull();
      for (const attribute of ['href', 'src', 'xlink:href', 'action', 'formaction']) {
        const value = element.getAttribute(attribute);
        if (value !== null) expect(value.replace(/\s/g, '')).not.toMatch(/^(javascript|data|vbscript):/i);
      }
    }
    expect(root.textContent).toContain('After');
  });

  it('sanitises the payloads even when handed over as HTML', () => {
    const root = dom(sanitizeHtml(PAYLOADS.filter((payload) => payload.startsWith('<')).join('')));
    expect(root.querySelectorAll('script, iframe, svg')).toHaveLength(0);
    expect(handlerAttributes(root)).toEqual([]);
    expect([...root.querySelectorAll('[style]')]).toEqual([]);
  });
});
