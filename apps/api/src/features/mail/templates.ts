import type { EmailKind, Language } from '@kadai/contracts';

/**
 * The text of every e-mail, in the recipient's language (users.display_lang). Plain text only: links
 * are written out in full, so they work in every mail client and nothing can be hidden behind them.
 */
export interface EmailVariables {
  productName: string;
  /** The link the e-mail exists for (verification or set-password). */
  link: string;
  /** How long the link works, in seconds. */
  lifetimeSeconds: number;
  recipientName: string;
  /** Invitations from a course list: which course, and who added the recipient. */
  courseTitle?: string;
  inviterName?: string;
  /** The sign-in page, for people who already have a password. */
  loginUrl: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
}

type Lang = 'ja' | 'en';

const langOf = (language: Language): Lang => (language === 'en-US' ? 'en' : 'ja');

/** "3 days", "12 hours": links expire after a length of time, so no time zone has to be guessed. */
function duration(seconds: number, lang: Lang): string {
  const days = Math.floor(seconds / 86_400);
  if (days >= 1 && seconds % 86_400 === 0) return lang === 'ja' ? `${days} 日` : plural(days, 'day');
  const hours = Math.max(1, Math.round(seconds / 3600));
  return lang === 'ja' ? `${hours} 時間` : plural(hours, 'hour');
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

function greeting(name: string, lang: Lang): string {
  if (lang === 'ja') return name ? `${name} 様` : 'こんにちは。';
  return name ? `Dear ${name},` : 'Hello,';
}

function footer(v: EmailVariables, lang: Lang): string {
  return lang === 'ja'
    ? `-- \n${v.productName}\nこのメールは送信専用です。返信はできません。`
    : `-- \n${v.productName}\nThis message was sent automatically; replies are not read.`;
}

/** Account e-mails; notifications and digests are written by the notifications feature (its mail.ts). */
type AccountEmailKind = Exclude<EmailKind, 'notification' | 'digest'>;

const TEMPLATES: Record<AccountEmailKind, Record<Lang, (v: EmailVariables) => RenderedEmail>> = {
  verify_email: {
    ja: (v) => ({
      subject: `【${v.productName}】メールアドレスの確認`,
      text: [
        greeting(v.recipientName, 'ja'),
        '',
        `${v.productName} へのご登録ありがとうございます。`,
        '次のリンクを開いてメールアドレスを確認すると、アカウントが有効になります。',
        '',
        v.link,
        '',
        `このリンクの有効期限は ${duration(v.lifetimeSeconds, 'ja')}です。`,
        '期限が切れた場合も、このリンクを開くと新しい確認メールを依頼できます。',
        'お心当たりのない場合は、このメールを破棄してください。アカウントは有効になりません。',
        '',
        footer(v, 'ja'),
      ].join('\n'),
    }),
    en: (v) => ({
      subject: `[${v.productName}] Confirm your e-mail address`,
      text: [
        greeting(v.recipientName, 'en'),
        '',
        `Thank you for registering with ${v.productName}.`,
        'Open this link to confirm your e-mail address and activate your account:',
        '',
        v.link,
        '',
        `The link works for ${duration(v.lifetimeSeconds, 'en')}.`,
        'If it has expired, open it all the same: the page lets you ask for a new one.',
        'If you did not register, ignore this e-mail: the account stays inactive.',
        '',
        footer(v, 'en'),
      ].join('\n'),
    }),
  },
  invitation: {
    ja: (v) => ({
      subject: `【${v.productName}】アカウントのご案内`,
      text: [
        greeting(v.recipientName, 'ja'),
        '',
        v.courseTitle
          ? `${v.inviterName ? `${v.inviterName} さんが` : ''}${v.productName} のコース「${v.courseTitle}」にあなたを登録しました。`
          : `${v.productName} にあなたのアカウントが作成されました。`,
        '次のリンクを開いてパスワードを設定してください。設定後、このメールアドレスとパスワードでサインインできます。',
        '',
        v.link,
        '',
        `このリンクの有効期限は ${duration(v.lifetimeSeconds, 'ja')}で、一度だけ使えます。`,
        '期限が切れた場合は、コースの担当者またはスタッフに新しいリンクを依頼してください。',
        `サインイン: ${v.loginUrl}`,
        '',
        footer(v, 'ja'),
      ].join('\n'),
    }),
    en: (v) => ({
      subject: `[${v.productName}] Your new account`,
      text: [
        greeting(v.recipientName, 'en'),
        '',
        v.courseTitle
          ? `${v.inviterName ?? 'Your instructor'} added you to the course "${v.courseTitle}" on ${v.productName}.`
          : `An account on ${v.productName} has been opened for you.`,
        'Open this link to choose your password; then sign in with this e-mail address and that password:',
        '',
        v.link,
        '',
        `The link works once, for ${duration(v.lifetimeSeconds, 'en')}.`,
        'If it has expired, ask your instructor or the staff for a new one.',
        `Sign in: ${v.loginUrl}`,
        '',
        footer(v, 'en'),
      ].join('\n'),
    }),
  },
  set_password: {
    ja: (v) => ({
      subject: `【${v.productName}】パスワード設定のご案内`,
      text: [
        greeting(v.recipientName, 'ja'),
        '',
        `${v.productName} のスタッフが、あなたのアカウントのパスワード設定リンクを発行しました。`,
        '次のリンクを開いて新しいパスワードを設定してください。',
        '',
        v.link,
        '',
        `このリンクの有効期限は ${duration(v.lifetimeSeconds, 'ja')}で、一度だけ使えます。`,
        'パスワードを設定すると、すべての端末でサインアウトされます。',
        'お心当たりのない場合は、このメールを破棄してください。今のパスワードはそのまま使えます。',
        '',
        footer(v, 'ja'),
      ].join('\n'),
    }),
    en: (v) => ({
      subject: `[${v.productName}] Set your password`,
      text: [
        greeting(v.recipientName, 'en'),
        '',
        `The ${v.productName} staff made a link for you to set a new password:`,
        '',
        v.link,
        '',
        `The link works once, for ${duration(v.lifetimeSeconds, 'en')}.`,
        'Setting a password signs you out on every device.',
        'If you did not expect this, ignore this e-mail: your current password keeps working.',
        '',
        footer(v, 'en'),
      ].join('\n'),
    }),
  },
  // The link leads to the profile page, where the owner downloads the zip while signed in: the e-mail
  // itself carries no credential, so a forwarded or intercepted message gives nothing away.
  data_export: {
    ja: (v) => ({
      subject: `【${v.productName}】個人データのダウンロード準備ができました`,
      text: [
        greeting(v.recipientName, 'ja'),
        '',
        `ご依頼いただいた ${v.productName} の個人データ（ZIP ファイル）の準備ができました。`,
        '次のリンクを開き、サインインした状態でダウンロードしてください。',
        '',
        v.link,
        '',
        `ファイルは ${duration(v.lifetimeSeconds, 'ja')}後に削除されます。その後は改めて依頼してください。`,
        'お心当たりのない場合は、パスワードを変更し、スタッフに連絡してください。',
        '',
        footer(v, 'ja'),
      ].join('\n'),
    }),
    en: (v) => ({
      subject: `[${v.productName}] Your personal data is ready to download`,
      text: [
        greeting(v.recipientName, 'en'),
        '',
        `The copy of your personal data on ${v.productName} that you asked for (a zip file) is ready.`,
        'Open this link and download it while signed in:',
        '',
        v.link,
        '',
        `The file is deleted after ${duration(v.lifetimeSeconds, 'en')}; after that, ask for a new one.`,
        'If you did not ask for it, change your password and tell the staff.',
        '',
        footer(v, 'en'),
      ].join('\n'),
    }),
  },
};

export function renderEmail(
  kind: AccountEmailKind,
  language: Language,
  variables: EmailVariables,
): RenderedEmail {
  return TEMPLATES[kind][langOf(language)](variables);
}
