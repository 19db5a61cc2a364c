import { useEffect } from 'react';

const SITE = 'Learning Platform';

/** "<title> · Learning Platform" while the page is shown (just the site name without one). */
export function useDocumentTitle(title: string | undefined | null): void {
  useEffect(() => {
    document.title = title ? `${title} · ${SITE}` : SITE;
  }, [title]);
}
