import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { lesson, signedOutLessonRoutes } from '@/test/fixtures';
import { mockApi } from '@/test/mockApi';
import { renderApp } from '@/test/render';

// Staff reading a draft of a live lesson (the API answers it to staff only, naming the live one).
const draft = { ...lesson, slug: 'draft-7-embedding-dimension', title: 'Embedding dimension, rewritten', draft_of: 'embedding-dimension' };

describe('draft preview', () => {
  it('says it is a draft, links the live lesson and leaves out the comments', async () => {
    mockApi(signedOutLessonRoutes(draft));
    renderApp(`/lessons/${draft.slug}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Embedding dimension, rewritten' })).toBeInTheDocument();
    const banner = screen.getByText('Draft preview.').closest('p');
    expect(banner).toHaveTextContent('Draft preview. Learners read the live lesson until this is published.');
    expect(banner).toHaveTextContent('pay no XP');
    expect(screen.getByRole('link', { name: 'the live lesson' })).toHaveAttribute('href', '/lessons/embedding-dimension');
    expect(screen.queryByRole('heading', { name: /comments/i })).not.toBeInTheDocument();
  });

  it('shows no banner on a published lesson', async () => {
    mockApi(signedOutLessonRoutes());
    renderApp('/lessons/embedding-dimension');

    expect(await screen.findByRole('heading', { level: 1, name: 'Embedding dimension (d_model)' })).toBeInTheDocument();
    expect(screen.queryByText(/Draft preview/)).not.toBeInTheDocument();
  });
});
