/**
 * Registers English as the words of the viewer's components outside any provider: the editor
 * and the rest of the app (English for now, issue 19) import this where they draw the map.
 * The viewer's own page never does: it brings the catalogue of its language.
 */
import en from 'virtual:viewer-messages/en';
import { setFallbackTranslator } from './i18n-context';
import { createTranslator } from './translator';

setFallbackTranslator(createTranslator('en', en));
