/**
 * A photo made smaller on the phone before it is queued: the longest side at most `maxSide` pixels,
 * re-encoded as JPEG. A 12-megapixel photo (4 MB and more) becomes a few hundred kilobytes, which
 * a weak signal can carry. An image the browser cannot decode is passed on as it is (the server
 * judges its bytes).
 */
export async function resizeImage(file: Blob, maxSide = 1600, quality = 0.8): Promise<Blob> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return file;
  }
  const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return file;
  // JPEG has no transparency: a white ground instead of black.
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const blob = await new Promise<Blob | null>((resolve) =>
    canvas.toBlob(resolve, 'image/jpeg', quality),
  );
  return blob ?? file;
}
