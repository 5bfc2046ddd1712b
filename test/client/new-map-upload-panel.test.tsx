/**
 * The new-map page's upload panel says what the server's sanitiser removed from a drawing
 * (the upload's answer, `removed`), in the server's words, and nothing when nothing was.
 */
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { UploadPanel } from '../../client/src/features/new-map/components/upload-panel';
import type { Upload } from '../../client/src/lib/upload/use-upload';
import type { UploadedFile } from '../../client/src/lib/upload/upload-api';

const file = (removed: UploadedFile['removed']): UploadedFile => ({ id: 'planPlanPlanPlanPlan01', url: '/files/planPlanPlanPlanPlan01', kind: 'svg', contentType: 'image/svg+xml', width: 800, height: 600, size: 1200, removed });
const upload = (uploaded: UploadedFile): Upload => ({ state: { status: 'done', name: 'mall.svg', file: uploaded }, start: vi.fn(), wait: vi.fn(), cancel: vi.fn(), clear: vi.fn() });

describe('the upload panel of /maps/new', () => {
  it('lists what was removed from the drawing', () => {
    const message = '45 embedded images were removed for safety; upload them as separate images.';
    render(<UploadPanel upload={upload(file([{ what: 'embedded images', count: 45, message }]))} maxBytes={1024 * 1024} onFile={() => {}} />);
    expect(within(screen.getByRole('list', { name: 'Removed from mall.svg' })).getByText(message)).toBeInTheDocument();
  });

  it('says nothing more when nothing was removed', () => {
    render(<UploadPanel upload={upload(file([]))} maxBytes={1024 * 1024} onFile={() => {}} />);
    expect(screen.queryByRole('list', { name: /Removed from/ })).not.toBeInTheDocument();
    expect(screen.getByText(/Uploaded and made safe/)).toBeInTheDocument();
  });
});
