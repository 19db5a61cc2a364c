import { onlineManager } from '@tanstack/react-query';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { announceUpdate } from '@/lib/serviceWorker';
import { mockApi } from '@/test/mockApi';
import { signedOutLessonRoutes } from '@/test/fixtures';
import { renderApp } from '@/test/render';

describe('the app status line', () => {
  afterEach(() => {
    onlineManager.setOnline(true);
    announceUpdate(null);
  });

  it('says the page is the copy saved on the device while offline', async () => {
    mockApi(signedOutLessonRoutes());
    renderApp('/lessons/embedding-dimension');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.getByTestId('app-status')).toBeEmptyDOMElement();

    act(() => onlineManager.setOnline(false));
    expect(screen.getByTestId('app-status')).toHaveTextContent('Offline — showing the copy saved on this device.');
    expect(screen.getByTestId('app-status')).toHaveAttribute('role', 'status');

    act(() => onlineManager.setOnline(true));
    expect(screen.getByTestId('app-status')).toBeEmptyDOMElement();
  });

  it('announces a new version and takes it on the next page, not before', async () => {
    mockApi({ ...signedOutLessonRoutes(), 'GET /api/v1/quests/': { body: { count: 0, next: null, previous: null, results: [] } } });
    const apply = vi.fn(() => Promise.resolve());
    // The layout scrolls to the top on a new page; jsdom has no scrolling.
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    const { router } = renderApp('/lessons/embedding-dimension');
    await screen.findByRole('heading', { level: 1 });

    act(() => announceUpdate(apply));
    expect(screen.getByTestId('app-status')).toHaveTextContent('A new version is ready — it loads on your next page.');
    expect(apply).not.toHaveBeenCalled();

    await act(() => router.navigate('/achievements'));
    expect(apply).toHaveBeenCalledTimes(1);
  });
});
