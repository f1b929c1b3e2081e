import { Image, Loader } from '@mantine/core';
import { useEffect, useState } from 'react';

/**
 * A text (an `otpauth://` URI) as a QR code image for a phone to scan. The encoder is loaded when
 * first needed, so pages that never show one do not carry it.
 */
export function QrCode({ value, label }: { value: string; label: string }) {
  const [source, setSource] = useState<string | undefined>();
  useEffect(() => {
    let current = true;
    void import('qrcode').then(async ({ toDataURL }) => {
      const url = await toDataURL(value, { margin: 1, width: 200 });
      if (current) setSource(url);
    });
    return () => {
      current = false;
    };
  }, [value]);
  if (!source) return <Loader size="sm" aria-label="Drawing the QR code" />;
  return <Image src={source} alt={label} w={200} h={200} />;
}
