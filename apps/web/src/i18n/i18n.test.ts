import { describe, expect, it } from 'vitest';
import enUS from './en-US.json';
import ja from './ja.json';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') entries.set(path, value);
    else for (const [k, v] of flatten(value, path)) entries.set(k, v);
  }
  return entries;
}

const en = flatten(enUS);
const jp = flatten(ja);
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('translations', () => {
  it('has every key in both languages', () => {
    expect([...en.keys()].filter((key) => !jp.has(key))).toEqual([]);
    expect([...jp.keys()].filter((key) => !en.has(key))).toEqual([]);
  });

  it('has no empty text', () => {
    const empty = [...en, ...jp].filter(([, text]) => text.trim() === '').map(([key]) => key);
    expect(empty).toEqual([]);
  });

  it('uses the same placeholders in both languages', () => {
    const differing = [...en].filter(
      ([key, text]) => placeholders(text).join() !== placeholders(jp.get(key) ?? '').join(),
    );
    expect(differing.map(([key]) => key)).toEqual([]);
  });

  it('has a Japanese text for every key, not a copy of the English', () => {
    const same = [...en]
      .filter(([key, text]) => jp.get(key) === text && /[a-z]{4,}/i.test(text))
      .map(([key]) => key)
      // Names that read the same in both: the product's tabs, the bilingual language switcher, brands,
      // the sign-in protocols.
      .filter(
        (key) =>
          ![
            'routes.pygrade',
            'header.pygradeTab',
            'header.languageSwitcher',
            'videos.platform.vimeo',
            'videos.platform.youtube',
            'identity.kind.oidc',
            'identity.kindShort.saml',
            'identity.kindShort.oidc',
          ].includes(key),
      );
    expect(same).toEqual([]);
  });

  it('says the messages of spec §8 in English exactly as the spec writes them', () => {
    expect(Object.fromEntries([...en].filter(([key]) => SPEC_KEYS.includes(key)))).toEqual(SPEC_MESSAGES);
  });
});

const SPEC_MESSAGES: Record<string, string> = {
  'auth.login.failed': 'Email authentication failed.',
  'auth.login.forgotten': 'Forgotten your password?',
  'auth.login.forgottenHelp': 'Please contact the {{product}} team if you have forgotten your password',
  'auth.login.submit': 'Sign In',
  'auth.setPassword.mismatch': 'Passwords do not match',
  'auth.setPassword.success': 'Password set successfully',
  'auth.passwordChange.success': 'New password has been saved.',
  'auth.passwordChange.failed': 'Failed to change password.',
  'auth.passwordChange.newPassword': 'New Password',
  'auth.passwordChange.retypePassword': 'Retype New Password',
  'auth.password.hintsTitle': 'Your password must :',
  'auth.password.hintLength': 'Contain at least 8 characters',
  'auth.password.hintCommon': 'Not be too common',
  'auth.logout.confirm': 'Sure to logout?',
  'notFound.message': 'Sorry, but the requested page does not exist.',
  'notFound.back': 'Get Back To Home',
  'common.copyFailed': 'Failed to copy the token to your clipboard.',
  'common.confirmDelete': 'Sure to delete the data?',
  'common.confirmDiscard': 'Sure to discard the changes?',
  'common.confirmReset': 'Sure to reset?',
  'common.confirmFinalSubmission': 'Sure to submit this final submission?',
  'common.tooLongToShow': 'Too long to show',
  'common.downloadDenied': 'Browser denied file download...',
  'common.downloadFailed': 'Downloading failed. Please check your connection status.',
  'forum.savePostFailed': 'Saving post failed.',
  'forum.postEmpty': 'Post content is empty.',
  'forum.uploadLimit': 'Failed. Please check the limit for file size and the number of files.',
  'quiz.submitted': 'Quiz Submitted Successfully',
  'quiz.submitFailed': 'Failed to submit quiz',
  'quiz.submissionFailed': 'Submission failed. Please try again.',
  'quiz.answerAll': 'Please answer all questions before submitting.',
  'quiz.submitOnce': 'Only allow submitting once. Sure to submit your answers?',
  'videos.synced': 'Video synced successfully',
  'videos.syncFailed': 'Failed to sync videos',
  'videos.syncWarning': 'The sync process may take a few minutes. Sure to proceed?',
  'submissions.scoreFetchFailed': 'Submission fetch after SCORE SUBMISSION failed.',
  'rail.videos': 'Lecture Videos',
};
const SPEC_KEYS = Object.keys(SPEC_MESSAGES);
