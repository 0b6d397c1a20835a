import { InputText } from 'primereact/inputtext';
import { Password } from 'primereact/password';

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  type?: 'text' | 'email' | 'tel' | 'password' | 'number';
  disabled?: boolean;
  autoComplete?: string;
  hint?: string;
  required?: boolean;
  inputMode?: 'numeric' | 'tel' | 'email' | 'text';
}

/** A labelled input with its message underneath, the moment it is wrong. */
export function TextField({
  id,
  label,
  value,
  onChange,
  error,
  type = 'text',
  disabled,
  autoComplete,
  hint,
  required,
  inputMode,
}: TextFieldProps) {
  const describedBy =
    [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') ||
    undefined;
  return (
    <div className="form-field">
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {type === 'password' ? (
        <Password
          inputId={id}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          feedback={false}
          toggleMask
          invalid={Boolean(error)}
          autoComplete={autoComplete}
          aria-describedby={describedBy}
          disabled={disabled}
        />
      ) : (
        <InputText
          id={id}
          type={type === 'number' ? 'text' : type}
          inputMode={inputMode ?? (type === 'number' ? 'numeric' : undefined)}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          invalid={Boolean(error)}
          autoComplete={autoComplete}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          disabled={disabled}
        />
      )}
      {hint && (
        <small id={`${id}-hint`} className="field-hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className="p-error">
          {error}
        </small>
      )}
    </div>
  );
}

/** Cancel and 'Save Changes', the primary action at the end of the line (bottom-left in Arabic). */
export function FormActions({
  onCancel,
  busy,
  cancelLabel,
  saveLabel,
}: {
  onCancel: () => void;
  busy: boolean;
  cancelLabel: string;
  saveLabel: string;
}) {
  return (
    <div className="form-actions">
      <button
        type="button"
        className="p-button p-component p-button-text p-button-secondary"
        onClick={onCancel}
        disabled={busy}
      >
        <span className="p-button-label">{cancelLabel}</span>
      </button>
      <button type="submit" className="p-button p-component" disabled={busy} aria-busy={busy}>
        {busy && (
          <span
            className="p-button-icon p-button-icon-left pi pi-spin pi-spinner"
            aria-hidden="true"
          />
        )}
        <span className="p-button-label">{saveLabel}</span>
      </button>
    </div>
  );
}
