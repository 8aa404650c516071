import type { MouseEvent, ReactNode } from 'react';
import { Button, type ButtonProps } from 'antd';
import { useHref, useLinkClickHandler, type To } from 'react-router-dom';

type Props = Omit<ButtonProps, 'href' | 'onClick'> & { to: To; state?: unknown; replace?: boolean; children: ReactNode };

/** A router link that looks like a button (an <a>, so it is a link for keyboards and screen readers). */
export function ButtonLink({ to, state, replace, children, ...rest }: Props) {
  const href = useHref(to);
  const handle = useLinkClickHandler(to, { state, replace });
  return (
    <Button {...rest} href={href} onClick={(e: MouseEvent<HTMLElement>) => handle(e as MouseEvent<HTMLAnchorElement>)}>
      {children}
    </Button>
  );
}
