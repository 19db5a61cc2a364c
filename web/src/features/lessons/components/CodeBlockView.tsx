import { useEffect, useState } from 'react';
import type { CodeBlock } from '@/lib/types';

export function CodeBlockView({ block }: { block: CodeBlock }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const [html, setHtml] = useState<string | null>(null);
  // highlight.js comes in its own chunk: the code shows at once as plain text, coloured when
  // the chunk arrives, and the rest of the page does not wait for it.
  useEffect(() => {
    let current = true;
    import('@/lib/highlight')
      .then(({ highlight }) => {
        if (current) setHtml(highlight(block.source, block.language));
      })
      .catch(() => undefined);
    return () => {
      current = false;
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
    <figure className="code-block">
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
