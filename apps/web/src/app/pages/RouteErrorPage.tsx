import { Button, Stack, Text, Title } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Last resort for an error thrown while rendering a page (a failed lazy chunk after a deploy, a bug). */
export function RouteErrorPage() {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="md" py={64} ta="center" component="main">
      <Title order={1}>{t('errors.unexpectedTitle')}</Title>
      <Text>{t('errors.unexpected')}</Text>
      <Button onClick={() => window.location.reload()}>{t('errors.reload')}</Button>
    </Stack>
  );
}

interface BoundaryProps {
  /** The page's address: going elsewhere shows the pages again. */
  pathname: string;
  children: ReactNode;
}

interface BoundaryState {
  failed: boolean;
  pathname: string;
}

/**
 * Shows RouteErrorPage in place of the pages below it when one throws while rendering, until the
 * reader goes to another address (react-router's declarative routes catch nothing themselves).
 */
export class RouteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, pathname: this.props.pathname };

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.pathname === state.pathname ? null : { failed: false, pathname: props.pathname };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <RouteErrorPage /> : this.props.children;
  }
}
