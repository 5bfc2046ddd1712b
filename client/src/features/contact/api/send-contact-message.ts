/** `POST /api/contact`: one contact-form message, through the one API module. */
import { ContactReceipt, type ContactRequestInput } from '../../../../../events/contact';
import { api as defaultApi, type ApiClient } from '../../../lib/api';

export async function sendContactMessage(request: ContactRequestInput, api: ApiClient = defaultApi): Promise<ContactReceipt> {
  return (await api.post('/api/contact', request, ContactReceipt)).result;
}
