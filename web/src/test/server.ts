import { setupServer } from 'msw/node';

/** The tests' one Mock Service Worker (Node): setup.ts starts it, mockApi gives it routes. */
export const server = setupServer();
