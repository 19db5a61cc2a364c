// Syntax highlighting with highlight.js core and only the languages lessons use.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';

hljs.registerLanguage('python', python);
hljs.registerLanguage('bash', bash);
hljs.registerLanguage('javascript', javascript);
hljs.registerLanguage('json', json);
hljs.registerLanguage('plaintext', plaintext);

/** Highlighted HTML for `source` (escaped by highlight.js), plain escaped text for other languages. */
export function highlight(source: string, language: string): string {
  const name = language.toLowerCase();
  if (hljs.getLanguage(name)) return hljs.highlight(source, { language: name, ignoreIllegals: true }).value;
  return hljs.highlight(source, { language: 'plaintext' }).value;
}
