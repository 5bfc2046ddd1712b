/**
 * Schema refusals in the user's words (events/issue-message.ts): zod's own English ("Too big:
 * expected number to be <=64") reached the editor and the API's error answers (issue 27).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldLabel, issueMessage, issueText } from '../../events/issue-message.js';
import { Settings, emptyMapDocument } from '../../events/map-document.js';

const firstIssue = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a refusal');
  return parsed.error.issues[0]!;
};

describe('issueMessage', () => {
  const settings = emptyMapDocument().settings;

  it('names the field and the limit where zod names neither', () => {
    expect(issueMessage(firstIssue(Settings, { ...settings, maxZoom: 100 }))).toBe('Maximum zoom can be at most 64.');
    expect(issueMessage(firstIssue(Settings, { ...settings, size: { ...settings.size, height: 0 } }))).toBe('Height must be more than 0.');
    expect(issueMessage(firstIssue(Settings, { ...settings, initialView: { x: 0, y: 0, zoom: 0 } }))).toBe('Zoom must be at least 0.1.');
  });

  it('says each kind of refusal in words', () => {
    const schema = z.object({
      title: z.string().min(1).max(80),
      code: z.string().min(3),
      tags: z.array(z.string()).min(1).max(2),
      count: z.number().int(),
      kind: z.enum(['pin', 'label']),
      email: z.email(),
      phoneNumber: z.string(),
    });
    const valid = { title: 'A', code: 'abc', tags: ['a'], count: 1, kind: 'pin', email: 'a@example.com', phoneNumber: '1' };
    const says = (change: Record<string, unknown>) => issueMessage(firstIssue(schema, { ...valid, ...change }));
    expect(says({ title: '' })).toBe('Title is required.');
    expect(says({ title: 'x'.repeat(81) })).toBe('Title can be at most 80 characters long.');
    expect(says({ code: 'ab' })).toBe('Code must be at least 3 characters long.');
    expect(says({ tags: [] })).toBe('Tags needs at least 1 item.');
    expect(says({ tags: ['a', 'b', 'c'] })).toBe('Tags can have at most 2 items.');
    expect(says({ count: 1.5 })).toBe('Count must be a whole number.');
    expect(says({ count: 'x' })).toBe('Count must be a number.');
    expect(says({ kind: 'star' })).toBe('Kind must be one of: pin, label.');
    expect(says({ email: 'nope' })).toBe('Email must be an e-mail address.');
    expect(says({ phoneNumber: undefined })).toBe('Phone number is required.');
  });

  it('keeps a message the schema words itself', () => {
    const issue = firstIssue(Settings, { ...settings, minZoom: 9, maxZoom: 2 });
    expect(issueMessage(issue)).toBe('Minimum zoom can be at most the maximum zoom.');
    expect(issueText(issue)).toBe('minZoom: Minimum zoom can be at most the maximum zoom.');
  });

  it('labels a field by its last named key', () => {
    expect(fieldLabel(['locations', 3, 'phoneNumber'])).toBe('Phone number');
    expect(fieldLabel(['settings', 'initialView', 'zoom'])).toBe('Zoom');
    expect(fieldLabel([])).toBe('This value');
  });

  it('never lets zod’s developer English through', () => {
    const schema = z.object({ a: z.number().max(1), b: z.string().min(2), c: z.array(z.number()).max(0), d: z.boolean(), e: z.literal('x') });
    for (const value of [{ a: 2 }, { b: 'x' }, { c: [1] }, { d: 'yes' }, { e: 'y' }]) {
      const issues = schema.safeParse({ a: 0, b: 'xx', c: [], d: true, e: 'x', ...value }).error!.issues;
      for (const issue of issues) expect(issueMessage(issue)).not.toMatch(/Too big|Too small|Invalid|expected|received|[<>]=?/);
    }
  });
});
