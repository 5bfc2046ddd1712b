/**
 * The last check before a panel gives edits: each edit must match the schema `editMap` takes
 * (`DocumentEdit`: a floor's drawing one of the product's own files, say) and fit the
 * document as the edits before it leave it (`checkEdit`). A panel never gives an edit the
 * editor would have to refuse: a collaborator may have removed the floor or group a dialog
 * was about to delete, for instance.
 */
import type { MapDocument } from '../../../../../events/map-document';
import { issueText } from '../../../../../events/issue-message';
import { applyEdit, checkEdit, DocumentEdit, type MapEdit } from '../../../../../events/map-edits';
import type { EditOptions, OnEdit } from './panel-props';

/** What is wrong with making `edits` on `document`, in order, or null when they all fit. */
export function problemWithEdits(document: MapDocument, edits: readonly MapEdit[]): string | null {
  let current = document;
  for (const edit of edits) {
    const parsed = DocumentEdit.safeParse(edit);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return issue ? issueText(issue) : 'The edit is not valid.';
    }
    const problem = checkEdit(current, parsed.data);
    if (problem) return problem;
    current = applyEdit(current, parsed.data);
  }
  return null;
}

/** Gives the edits when they fit the document and answers null; otherwise gives nothing and answers why. */
export type CheckedOnEdit = (edits: MapEdit[], options?: EditOptions) => string | null;

export function checkedOnEdit(document: MapDocument, onEdit: OnEdit): CheckedOnEdit {
  return (edits, options) => {
    const problem = problemWithEdits(document, edits);
    if (problem) return problem;
    if (options) onEdit(edits, options);
    else onEdit(edits);
    return null;
  };
}
