import { Center, Loader, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { errorMessage } from '../../ui/errors.ts';
import { AuthCard } from '../auth/AuthCard.tsx';
import { useOneTimeParams } from '../auth/one-time-params.ts';
import { LtiLinkForm } from './LtiLinkForm.tsx';
import { LtiProblem } from './LtiProblem.tsx';
import { ltiErrorOf, signInWithLtiCode } from './lti-sign-in.ts';

// The first page an LMS shows in its frame: kept light (no form library, no staff code), the link
// form is its only other part.

const ONE_TIME_PARAMS = ['code', 'link'];

/**
 * Where a launch from an LMS lands (`/lti`, issue 38): `?code=` is exchanged for a session at once and
 * the page the launch was for opens; `?link=` asks for the password of the Kadai account with the
 * person's e-mail address, once, to link them; `?error=` says why the launch did not work.
 */
export function LtiLaunchPage() {
  const params = useOneTimeParams(ONE_TIME_PARAMS);
  const code = params.get('code');
  const link = params.get('link');
  if (code) return <LtiExchange code={code} />;
  if (link) return <LtiLinkForm code={link} />;
  return <LtiProblem reason={ltiErrorOf(params.get('error')) ?? 'unknown'} />;
}

type Failure = { kind: 'reason'; reason: 'expired' } | { kind: 'message'; message: string };

function LtiExchange({ code }: { code: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const started = useRef(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  useEffect(() => {
    // The code works once: a second run of the effect (development's strict mode) must not spend it.
    if (started.current) return;
    started.current = true;
    signInWithLtiCode(code).then(
      (target) => void navigate(target, { replace: true }),
      (error: unknown) => {
        console.warn('LTI launch failed', error);
        setFailure(
          isApiError(error, 410) || isApiError(error, 404)
            ? { kind: 'reason', reason: 'expired' }
            : { kind: 'message', message: errorMessage(error, t) },
        );
      },
    );
  }, [code, navigate, t]);
  if (failure?.kind === 'reason') return <LtiProblem reason={failure.reason} />;
  if (failure) return <LtiProblem reason="unknown" detail={failure.message} />;
  return (
    <AuthCard title={t('lti.launch.signingInTitle')} width={420}>
      <Center>
        <Loader aria-hidden />
      </Center>
      <Text size="sm" ta="center" role="status">
        {t('lti.launch.signingIn')}
      </Text>
    </AuthCard>
  );
}
