import { Button } from 'primereact/button';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  id: string;
  /** The signature as a PNG after each stroke, null once cleared. */
  onChange: (signature: Blob | null) => void;
}

/**
 * A signature drawn with a finger, a pen or a mouse on a canvas (pointer events, one code path for
 * all three), sent as a PNG. Small enough to need no library: strokes are quadratic curves through
 * the midpoints of the pointer's samples, sized for the screen's pixel ratio.
 */
export function SignaturePad({ id, onChange }: Props) {
  const { t } = useTranslation();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drawing = useRef<{ x: number; y: number } | null>(null);
  const [empty, setEmpty] = useState(true);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const ratio = window.devicePixelRatio || 1;
    const { width, height } = canvas.getBoundingClientRect();
    canvas.width = Math.max(1, Math.round(width * ratio));
    canvas.height = Math.max(1, Math.round(height * ratio));
    const context = canvas.getContext('2d');
    if (context) {
      context.scale(ratio, ratio);
      context.lineWidth = 2.5;
      context.lineCap = 'round';
      context.lineJoin = 'round';
      context.strokeStyle = '#10213a';
    }
  }, []);

  const pointOf = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };

  const start = (event: React.PointerEvent<HTMLCanvasElement>) => {
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    const point = pointOf(event);
    drawing.current = point;
    const context = event.currentTarget.getContext('2d');
    if (!context) return;
    context.beginPath();
    context.arc(point.x, point.y, 1.2, 0, Math.PI * 2);
    context.fillStyle = '#10213a';
    context.fill();
    context.beginPath();
    context.moveTo(point.x, point.y);
  };

  const move = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const last = drawing.current;
    if (!last) return;
    event.preventDefault();
    const context = event.currentTarget.getContext('2d');
    if (!context) return;
    const point = pointOf(event);
    const middle = { x: (last.x + point.x) / 2, y: (last.y + point.y) / 2 };
    context.quadraticCurveTo(last.x, last.y, middle.x, middle.y);
    context.stroke();
    context.beginPath();
    context.moveTo(middle.x, middle.y);
    drawing.current = point;
  };

  const end = () => {
    if (!drawing.current) return;
    drawing.current = null;
    setEmpty(false);
    canvasRef.current?.toBlob((blob) => onChange(blob), 'image/png');
  };

  const clear = () => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (canvas && context) {
      context.save();
      context.setTransform(1, 0, 0, 1, 0, 0);
      context.clearRect(0, 0, canvas.width, canvas.height);
      context.restore();
    }
    setEmpty(true);
    onChange(null);
  };

  return (
    <div className="signature-pad">
      <canvas
        id={id}
        ref={canvasRef}
        className="signature-canvas"
        role="img"
        aria-label={t('pod.signatureArea')}
        onPointerDown={start}
        onPointerMove={move}
        onPointerUp={end}
        onPointerCancel={end}
        onPointerLeave={end}
      />
      <div className="signature-actions">
        <span className="muted">{empty ? t('pod.signHere') : t('pod.signed')}</span>
        <Button
          type="button"
          label={t('pod.clear')}
          icon="pi pi-eraser"
          text
          size="small"
          onClick={clear}
          disabled={empty}
        />
      </div>
    </div>
  );
}
