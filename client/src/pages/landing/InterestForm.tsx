import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessageAnswer } from '../../../../domain/contracts/common.ts';
import { apiPost } from '../../api/http.ts';
import { notify } from '../../state/common.ts';
import { useMessageText } from '../../components/messages.ts';
import type { FormSection } from './landing.content.ts';

/** The sign-up-interest form: one input, sent only when not empty, with no format check of its own. */
export function InterestForm({ form }: { form: FormSection }) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = email.trim();
    if (value === '') return;
    setBusy(true);
    try {
      const answer = await apiPost<MessageAnswer>(
        '/sendInfoToAdmin',
        { email: value },
        { auth: false },
      );
      notify('success', messageText(answer?.message ?? 'Thank you! We will be in touch soon.'));
      setEmail('');
    } catch {
      notify('error', t('home.formError'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section
      id="signup"
      className="landing-section landing-signup-band"
      aria-labelledby="signup-title"
    >
      <div className="landing-inner landing-signup">
        <div>
          <h2 id="signup-title" className="landing-section-title">
            {form.title}
          </h2>
          <p className="landing-lead">{form.subtitle}</p>
        </div>
        <form className="interest-form" onSubmit={submit} noValidate>
          <label htmlFor="interest-email" className="visually-hidden">
            {form.inputPlaceholder}
          </label>
          <InputText
            id="interest-email"
            inputMode="email"
            autoComplete="email"
            value={email}
            placeholder={form.inputPlaceholder}
            onChange={(event) => setEmail(event.target.value)}
          />
          <Button type="submit" label={form.actionButtonText} icon="pi pi-send" loading={busy} />
        </form>
      </div>
    </section>
  );
}
