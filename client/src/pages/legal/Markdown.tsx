import { Fragment, type ReactNode } from 'react';

/** `**bold**` inside a line of text. */
function inline(text: string): ReactNode[] {
  return text
    .split(/(\*\*[^*]+\*\*)/g)
    .map((part, index) =>
      part.startsWith('**') && part.endsWith('**') && part.length > 4 ? (
        <strong key={index}>{part.slice(2, -2)}</strong>
      ) : (
        <Fragment key={index}>{part}</Fragment>
      ),
    );
}

/**
 * The small Markdown the content source uses for the privacy policy: `##` headings, paragraphs
 * separated by a blank line, `-` lists and `**bold**`. Rendered as elements, never as HTML.
 */
export function Markdown({ text, headingOffset = 0 }: { text: string; headingOffset?: number }) {
  const blocks = text
    .replace(/\r\n/g, '\n')
    .split(/\n{2,}/)
    .map((block) => block.trim())
    .filter(Boolean);
  return (
    <>
      {blocks.map((block, index) => {
        const heading = /^(#{1,4})\s+(.*)$/.exec(block);
        if (heading && !block.includes('\n')) {
          const level = Math.min(6, heading[1]!.length + headingOffset);
          const Tag = `h${level}` as 'h2';
          return <Tag key={index}>{inline(heading[2]!)}</Tag>;
        }
        const lines = block.split('\n');
        if (lines.every((line) => /^[-*]\s+/.test(line))) {
          return (
            <ul key={index}>
              {lines.map((line, at) => (
                <li key={at}>{inline(line.replace(/^[-*]\s+/, ''))}</li>
              ))}
            </ul>
          );
        }
        return <p key={index}>{inline(lines.join(' '))}</p>;
      })}
    </>
  );
}
