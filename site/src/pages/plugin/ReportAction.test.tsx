import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReportAction } from './ReportAction';

vi.mock('../../lib/api', () => ({ api: { moderation: {} } }));

afterEach(cleanup);

describe('the Report action', () => {
  it('names the item by its family’s noun', () => {
    const cases = [
      ['edu', 'course'],
      ['hub', 'dashboard widget'],
      ['space', 'application'],
      ['youtrack', 'app'],
      ['teamcity_recipes', 'recipe'],
      ['intellij', 'plugin'],
    ] as const;
    for (const [family, noun] of cases) {
      render(<ReportAction target={{ pluginId: 7, family }} />);
      fireEvent.click(screen.getByRole('button', { name: `Report this ${noun}` }));
      const form = screen.getByRole('form', { name: `Report this ${noun}` });
      expect(form.textContent).toContain(`Why do you report this ${noun}?`);
      cleanup();
    }
  });

  it('says review for a review', () => {
    render(<ReportAction target={{ reviewId: 3 }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Report review' }));
    expect(screen.getByRole('form', { name: 'Report this review' })).toBeTruthy();
  });
});
