import { Button } from 'primereact/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { paths } from '../../app/paths.ts';
import { fileUrl, type VideoSection } from './landing.content.ts';

const isImage = (url: string) => /\.(svg|png|jpe?g|gif|webp)(\?.*)?$/i.test(url);
const isVideoFile = (url: string) => /\.(mp4|webm|ogg)(\?.*)?$/i.test(url);

/** The product tour: the configured video, or the built-in animation; a plain timeline if neither loads. */
function TourMedia({ url, title }: { url: string; title: string }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  const src = fileUrl(url);
  if (src && !failed && isImage(src))
    return (
      <img
        src={src}
        alt={title}
        className="video-media"
        width={800}
        height={450}
        loading="lazy"
        decoding="async"
        onError={() => setFailed(true)}
      />
    );
  if (src && !failed && isVideoFile(src))
    return (
      // biome-ignore lint/a11y/useMediaCaption: the video comes from the content service, which has no caption track for it
      <video
        src={src}
        className="video-media"
        controls
        preload="metadata"
        onError={() => setFailed(true)}
      />
    );
  if (src && !failed && !isImage(src))
    return (
      <iframe
        src={src}
        title={title}
        className="video-media"
        allow="fullscreen; picture-in-picture"
        loading="lazy"
      />
    );
  const steps = [
    { icon: 'pi-box', text: t('home.tour.posted') },
    { icon: 'pi-tags', text: t('home.tour.bids') },
    { icon: 'pi-file-edit', text: t('home.tour.signed') },
    { icon: 'pi-truck', text: t('home.tour.tracked') },
    { icon: 'pi-check-circle', text: t('home.tour.delivered') },
  ];
  return (
    <ol className="video-media tour-timeline" aria-label={title}>
      {steps.map((step) => (
        <li key={step.icon}>
          <span aria-hidden="true">
            <i className={`pi ${step.icon}`} />
          </span>
          {step.text}
        </li>
      ))}
    </ol>
  );
}

export function VideoBand({
  video,
  onLearnMore,
}: {
  video: VideoSection;
  onLearnMore: () => void;
}) {
  const { t } = useTranslation();
  return (
    <section className="landing-video-band" aria-labelledby="video-title">
      <div className="landing-inner landing-video-grid">
        <div>
          <h2 id="video-title" className="landing-section-title">
            {video.title}
          </h2>
          <p className="landing-lead">{video.subtitle}</p>
          <div className="landing-cta">
            <Button
              type="button"
              label={t('home.learnMore')}
              outlined
              className="landing-ghost"
              onClick={onLearnMore}
            />
            <Link href={paths.signUpSelect} className="p-button p-component">
              <span className="p-button-label">{t('home.tryFree')}</span>
            </Link>
          </div>
        </div>
        <div className="video-frame">
          <TourMedia url={video.embeddedVideoUrl} title={video.title} />
        </div>
      </div>
    </section>
  );
}
