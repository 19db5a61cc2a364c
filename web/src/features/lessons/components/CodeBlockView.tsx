import { useEffect, useRef, useState } from 'react';
import type { CodeBlock } from '@/lib/types';

export function CodeBlockView({ block }: { block: CodeBlock }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const [html, setHtml] = useState<string | null>(null);
  const figure = useRef<HTMLElement>(null);
  // highlight.js comes in its own chunk: the code shows at once as plain text, coloured when
  // the chunk arrives, and the rest of the page does not wait for it. Colouring a block is one
  // long task on a phone (the grammar is compiled on first use), so it waits until the block
  // comes near the screen; a browser without IntersectionObserver colours it at once.
  useEffect(() => {
    let current = true;
    const colour = () =>
      import('@/lib/highlight')
        .then(({ highlight }) => {
          if (current) setHtml(highlight(block.source, block.language));
        })
        .catch(() => undefined);
    const element = figure.current;
    if (!element || typeof IntersectionObserver === 'undefined') {
      void colour();
      return () => {
        current = false;
      };
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        void colour();
      },
      { rootMargin: '200px 0px' },
    );
    observer.observe(element);
    return () => {
      current = false;
      observer.disconnect();
    };
  }, [block.source, block.language]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(block.source);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
    window.setTimeout(() => setCopied('idle'), 2000);
  };
  const label = copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Copy failed' : 'Copy';
  const name = block.title || block.language;
  return (
    <figure className="code-block" ref={figure}>
      <figcaption>
        <span>{name}</span>
        <button type="button" className="button small secondary" onClick={() => void copy()} aria-label={`${label} code: ${name}`}>
          {label}
        </button>
      </figcaption>
      <pre tabIndex={0} aria-label={`Code: ${name}`}>
        {html === null ? (
          <code className={`hljs language-${block.language}`}>{block.source}</code>
        ) : (
          // highlight.js escapes the source; the markup it adds is only its own spans.
          <code className={`hljs language-${block.language}`} dangerouslySetInnerHTML={{ __html: html }} />
        )}
      </pre>
    </figure>
  );
}
