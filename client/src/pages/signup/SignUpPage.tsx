import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { ApiError, apiPost, messageOf, multipartBody } from '../../api/http.ts';
import { paths } from '../../app/paths.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { AuthFrame } from '../../shared/auth/AuthFrame.tsx';
import { fieldOfMessage, useMessageText } from '../../components/messages.ts';
import {
  documentProblem,
  emptySignUp,
  fieldOfPath,
  registrationBody,
  stepOfField,
  stepsOf,
  validateAll,
  validateStep,
  type DocumentField,
  type SignUpErrors,
  type SignUpFiles,
  type SignUpKind,
  type SignUpValues,
  type StepId,
} from './signUp.model.ts';
import { AccountStep, AuthorityStep, CompanyStep } from './SignUpSteps.tsx';
import { FleetStep, InsuranceStep } from './SignUpFleetSteps.tsx';
import { ReviewStep } from './SignUpReview.tsx';

/** Where /signup-complete and /confirm-signup find the address the code went to. */
export const SIGNUP_EMAIL_KEY = 'signupEmail';

function rememberSignUpEmail(email: string) {
  try {
    window.sessionStorage.setItem(SIGNUP_EMAIL_KEY, email);
  } catch {
    // storage disabled: the confirmation page asks for the address
  }
}

const stepIcons: Record<StepId, string> = {
  account: 'pi-user',
  company: 'pi-building',
  authority: 'pi-id-card',
  fleet: 'pi-truck',
  insurance: 'pi-shield',
  review: 'pi-check-square',
};

/** The step indicator: each step's number and name, the current one marked for screen readers too. */
function StepIndicator({ steps, current }: { steps: readonly StepId[]; current: number }) {
  const { t } = useTranslation();
  return (
    <ol
      className="signup-steps"
      aria-label={t('signup.progress', { step: current + 1, total: steps.length })}
    >
      {steps.map((step, index) => (
        <li
          key={step}
          className={index < current ? 'is-done' : index === current ? 'is-current' : ''}
          aria-current={index === current ? 'step' : undefined}
        >
          <span className="signup-step-mark" aria-hidden="true">
            {index < current ? (
              <i className="pi pi-check" />
            ) : (
              <i className={`pi ${stepIcons[step]}`} />
            )}
          </span>
          <span className="signup-step-name">{t(`signup.steps.${step}`)}</span>
        </li>
      ))}
    </ol>
  );
}

/** /signup/carrier and /signup/shipper: the multi-step registration; Back, Next, and the submit on the last step. */
export default function SignUpPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const messageText = useMessageText();
  const kind: SignUpKind = titleKey === 'routes.signUpShipper' ? 'shipper' : 'carrier';
  const steps = stepsOf(kind);
  const [step, setStep] = useState(0);
  const [values, setValues] = useState<SignUpValues>(emptySignUp);
  const [files, setFiles] = useState<SignUpFiles>({});
  const [errors, setErrors] = useState<SignUpErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const last = step === steps.length - 1;

  // Focus follows the step, so a keyboard or screen-reader user starts at the new step's title.
  const moved = useRef(false);
  useEffect(() => {
    if (moved.current) heading.current?.focus();
    moved.current = true;
  }, [step]);

  const set = <K extends keyof SignUpValues>(field: K, value: SignUpValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => {
      const next = Object.fromEntries(
        Object.entries(current).filter(
          ([key]) => key !== field && !key.startsWith(`${String(field)}.`),
        ),
      );
      return Object.keys(next).length === Object.keys(current).length ? current : next;
    });
  };

  const chooseFile = (field: DocumentField, file: File | null) => {
    setFiles((current) => ({ ...current, [field]: file }));
    const problem = file ? documentProblem(file) : null;
    setErrors((current) => {
      const next = { ...current };
      if (problem) next[field] = problem;
      else delete next[field];
      return next;
    });
  };

  const next = () => {
    const found = validateStep(kind, step, values, files);
    setErrors(found);
    if (Object.keys(found).length === 0) setStep(step + 1);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!last) {
      next();
      return;
    }
    setFormError(null);
    const problem = validateAll(kind, values, files);
    if (problem) {
      setErrors(problem.errors);
      setStep(problem.step);
      return;
    }
    setBusy(true);
    try {
      const documents = kind === 'carrier' ? files : {};
      await apiPost(`/register/${kind}`, multipartBody(registrationBody(kind, values), documents), {
        auth: false,
      });
      rememberSignUpEmail(values.email.trim());
      navigate('/signup-complete');
    } catch (failure) {
      // The registration begun earlier with this e-mail and password waits for its code: on to it.
      if (failure instanceof ApiError && failure.code === 'registration_pending') {
        const email = values.email.trim();
        rememberSignUpEmail(email);
        navigate(`/confirm-signup?email=${encodeURIComponent(email)}&started=1`);
        return;
      }
      const found: SignUpErrors = {};
      if (failure instanceof ApiError) {
        for (const item of failure.errors)
          if (item.path) found[fieldOfPath(item.path)] ??= item.message;
        const named = fieldOfMessage(failure.message);
        if (named) found[named] ??= failure.message;
      }
      const first = Object.keys(found)[0];
      if (first) {
        setErrors(found);
        setStep(stepOfField(kind, first));
      }
      setFormError(messageText(messageOf(failure)));
    } finally {
      setBusy(false);
    }
  }

  const shown = Object.fromEntries(
    Object.entries(errors).map(([key, message]) => [key, messageText(message)]),
  );
  const props = { values, set, errors: shown };
  const current = steps[step];

  return (
    <AuthFrame
      title={t(titleKey)}
      subtitle={t(kind === 'carrier' ? 'signup.carrierSubtitle' : 'signup.shipperSubtitle')}
      icon={kind === 'carrier' ? 'pi-truck' : 'pi-box'}
      wide
    >
      <StepIndicator steps={steps} current={step} />
      <form className="auth-form signup-form" onSubmit={submit} noValidate>
        <h2 className="signup-step-title" ref={heading} tabIndex={-1}>
          {t('signup.stepOf', { step: step + 1, total: steps.length })} ·{' '}
          {t(`signup.steps.${current}`)}
        </h2>
        {formError && <Message severity="error" text={formError} className="form-message" />}
        {current === 'account' && <AccountStep {...props} />}
        {current === 'company' && <CompanyStep {...props} />}
        {current === 'authority' && <AuthorityStep {...props} files={files} onFile={chooseFile} />}
        {current === 'fleet' && <FleetStep {...props} />}
        {current === 'insurance' && <InsuranceStep {...props} />}
        {current === 'review' && <ReviewStep {...props} files={files} />}
        <div className="form-actions signup-actions">
          <Button
            type="button"
            label={t('common.back')}
            icon="pi pi-arrow-left"
            className="flip-icon-rtl"
            outlined
            severity="secondary"
            disabled={step === 0 || busy}
            onClick={() => setStep(step - 1)}
          />
          {last ? (
            <Button type="submit" label={t('signup.submit')} icon="pi pi-check" loading={busy} />
          ) : (
            <Button
              type="submit"
              label={t('signup.next')}
              icon="pi pi-arrow-right"
              iconPos="right"
              className="flip-icon-rtl"
            />
          )}
        </div>
      </form>
      <p className="auth-switch">
        {t('signup.haveAccount')} <Link href={paths.signIn}>{t('signIn.submit')}</Link>
      </p>
    </AuthFrame>
  );
}
