import { ScrollBox } from '@/components/ScrollBox';
import type { Block } from '@/lib/types';
import { CodeBlockView } from './CodeBlockView';

const CALLOUT_LABEL = { note: 'Note', tip: 'Tip', warning: 'Warning' } as const;

/** One lesson block. Prose and callout HTML is sanitized on the server and rendered as is. */
export function BlockView({ block }: { block: Block }) {
  switch (block.kind) {
    case 'prose':
      return <div className="prose" id={`block-${block.id}`} dangerouslySetInnerHTML={{ __html: block.html }} />;
    case 'callout':
      return (
        <aside className={`callout callout-${block.style}`} id={`block-${block.id}`} aria-label={CALLOUT_LABEL[block.style] ?? 'Note'}>
          <p className="callout-label">{CALLOUT_LABEL[block.style] ?? 'Note'}</p>
          <div className="prose" dangerouslySetInnerHTML={{ __html: block.html }} />
        </aside>
      );
    case 'table':
      return (
        <ScrollBox id={`block-${block.id}`} label={block.caption || 'Table'}>
          <table>
            {block.caption ? <caption>{block.caption}</caption> : null}
            <thead>
              <tr>
                {block.columns.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, index) => (
                <tr key={index}>
                  {row.map((cell, cellIndex) => (
                    <td key={cellIndex}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      );
    case 'code':
      return (
        <div id={`block-${block.id}`}>
          <CodeBlockView block={block} />
        </div>
      );
    default:
      return null;
  }
}
