import { useMemo, useState } from 'react';
import { highlight } from '@/lib/highlight';
import type { CodeBlock } from '@/lib/types';

export function CodeBlockView({ block }: { block: CodeBlock }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const html = useMemo(() => highlight(block.source, block.language), [block.source, block.language]);
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
        {/* highlight.js escapes the source; the markup it adds is only its own spans. */}
        <code className={`hljs language-${block.language}`} dangerouslySetInnerHTML={{ __html: html }} />
      </pre>
    </figure>
  );
}
