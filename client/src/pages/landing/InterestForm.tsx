import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessageAnswer } from '../../../../domain/contracts/common.ts';
import { interestContactSchema } from '../../../../domain/schemas/index.ts';
import { ApiError, apiPost } from '../../api/http.ts';
import { notify } from '../../state/common.ts';
import { useMessageText } from '../../components/messages.ts';
import type { FormSection } from './landing.content.ts';

/**
 * The sign-up-interest form: one input, sent only when not empty, with no format check (an e-mail
 * address, a phone, a name: what the visitor typed, one line of at most 200 characters). A refused
 * input says under the field what is expected; only a failure of the service is 'Oops'.
 */
export function InterestForm({ form }: { form: FormSection }) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (email.trim() === '') return;
    const checked = interestContactSchema.safeParse(email);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? null);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const answer = await apiPost<MessageAnswer>(
        '/sendInfoToAdmin',
        { email: checked.data },
        { auth: false },
      );
      notify('success', messageText(answer?.message ?? 'Thank you! We will be in touch soon.'));
      setEmail('');
    } catch (failure) {
      const refused =
        failure instanceof ApiError && failure.status === 400
          ? failure.errors.find((item) => item.path === 'email')
          : undefined;
      if (refused) setError(refused.message);
      else notify('error', t('home.formError'));
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
        <div>
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
              invalid={error !== null}
              aria-invalid={error !== null}
              aria-describedby={error ? 'interest-email-error' : undefined}
              onChange={(event) => {
                setEmail(event.target.value);
                setError(null);
              }}
            />
            <Button type="submit" label={form.actionButtonText} icon="pi pi-send" loading={busy} />
          </form>
          {error && (
            <small id="interest-email-error" className="p-error interest-error" role="alert">
              {messageText(error)}
            </small>
          )}
        </div>
      </div>
    </section>
  );
}
