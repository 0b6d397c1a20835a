import { Button } from 'primereact/button';
import { type DragEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  label: string;
  accept: string;
  file: File | null;
  onFile: (file: File | null) => void;
  error?: string | null;
  /** A link to what is stored already, shown while no new file is chosen. */
  current?: { href: string; label: string } | null;
  hint?: string;
}

/** A file drop zone: drag a file onto it, or pick one with the keyboard-reachable button. */
export function FileDropZone({ label, accept, file, onFile, error, current, hint }: Props) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const id = useId();

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files?.[0];
    if (dropped) onFile(dropped);
  };

  return (
    <div className="form-field">
      <span className="field-label" id={`${id}-label`}>
        {label}
      </span>
      {/* biome-ignore lint/a11y/useSemanticElements: a drop zone around a file button, not a fieldset of form fields */}
      <div
        className={`file-drop-zone${dragging ? ' is-dragging' : ''}${error ? ' is-invalid' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        aria-labelledby={`${id}-label`}
        role="group"
      >
        <i
          className={`pi ${file ? 'pi-file-check' : 'pi-cloud-upload'} file-drop-icon`}
          aria-hidden="true"
        />
        <div className="file-drop-text">
          {file ? (
            <strong className="file-name">{file.name}</strong>
          ) : current ? (
            <a href={current.href} target="_blank" rel="noreferrer">
              <i className="pi pi-file-pdf" aria-hidden="true" /> {current.label}
            </a>
          ) : (
            <span>{t('files.dropHere')}</span>
          )}
          {hint && <small className="field-hint">{hint}</small>}
        </div>
        <FileUploadButton
          inputRef={input}
          accept={accept}
          onFile={onFile}
          label={file || current ? t('files.replace') : t('files.choose')}
          describedBy={`${id}-label`}
        />
        {file && (
          <Button
            type="button"
            icon="pi pi-times"
            text
            rounded
            severity="secondary"
            aria-label={t('files.remove')}
            onClick={() => onFile(null)}
          />
        )}
      </div>
      {error && <small className="p-error">{error}</small>}
    </div>
  );
}

/** A button that opens the file picker. */
export function FileUploadButton({
  accept,
  onFile,
  label,
  inputRef,
  describedBy,
}: {
  accept: string;
  onFile: (file: File | null) => void;
  label: string;
  inputRef?: React.RefObject<HTMLInputElement | null>;
  describedBy?: string;
}) {
  const own = useRef<HTMLInputElement>(null);
  const input = inputRef ?? own;
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={accept}
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          onFile(event.target.files?.[0] ?? null);
          event.target.value = '';
        }}
      />
      <Button
        type="button"
        outlined
        size="small"
        icon="pi pi-upload"
        label={label}
        aria-describedby={describedBy}
        onClick={() => input.current?.click()}
      />
    </>
  );
}
