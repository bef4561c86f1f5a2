import { describe, expect, it } from 'vitest';
import { renderMarkdown, sanitizeHtml } from './markdown.ts';

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
