import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  STORAGE_STATE,
  colorScheme,
  currentLanguage,
  expectNoAxeViolations,
  readA11yData,
  setLanguageAndScheme,
  wakeCodeEditors,
} from './support.ts';

// Each walk checks several pages in two schemes (10–30 s on a quiet box); on a loaded one the first
// walks, run while the API warms up, went past Playwright's 60 s. Walks that need more say so.
// The walks only read (their data comes from data.setup.ts): they may run on any worker, beside the
// journeys and each other.
test.describe.configure({ mode: 'parallel', timeout: 120_000 });
// Axe checks what is at rest: with reduced motion the app skips its transitions (theme.ts), so no
// scan waits for a dialog to fade in. The journeys keep the motion.
test.use({ reducedMotion: 'reduce' });

/**
 * Axe on what is showing, then again in the other colour scheme. The second pass also switches the
 * language, so every page is checked in Japanese and in English as well.
 */
async function expectAccessibleInBothSchemes(
  page: Page,
  what: string,
  options?: { frames?: boolean },
): Promise<void> {
  await expectNoAxeViolations(page, what, options);
  await setLanguageAndScheme(
    page,
    (await currentLanguage(page)) === 'English' ? '日本語' : 'English',
    (await colorScheme(page)) === 'dark' ? 'light' : 'dark',
  );
  await expectNoAxeViolations(page, what, options);
}

/**
 * Opens a page of the app and waits for its heading, so axe sees the page and not a loader. From another
 * page of the app it follows the address as a link does (the history entry and the popstate event the
 * router listens to): no new document, so the app's script and axe's source are not loaded and run
 * again for every page (about 1 s of a worker each). The first page, another view of the page showing,
 * and a page whose heading the router keeps from the last one are loaded in full, as before.
 */
async function open(page: Page, url: string): Promise<void> {
  const here = page.url();
  let opened = false;
  // Another address of the same path (a view or tab in the query) is the same page to the router.
  if (here.startsWith('http') && new URL(url, here).pathname !== new URL(here).pathname) {
    await page.evaluate((address) => {
      // The headings the last page left, so the wait below is for the new page's.
      for (const heading of document.querySelectorAll('h1')) heading.setAttribute('data-left-behind', '');
      history.pushState(null, '', address);
      window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
    }, url);
    opened = await page
      .locator('h1:not([data-left-behind])')
      .waitFor({ timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
  }
  if (!opened) await page.goto(url);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveCount(0);
}

async function expectDialogAccessible(page: Page, opener: Locator, what: string): Promise<void> {
  await opener.click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectNoAxeViolations(page, what);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
}

test('signed-out pages pass axe in both colour schemes', async ({ page }) => {
  const pages = [
    '/login',
    '/set-password?uid=MQ&token=not-a-real-token',
    '/set-password',
    '/password-change',
    '/about',
    '/privacy-policy',
  ];
  for (const url of pages) {
    await test.step(url, async () => {
      await open(page, url);
      await expectAccessibleInBothSchemes(page, url);
    });
  }
  await test.step('forgotten-password dialog', async () => {
    await open(page, '/login');
    await expectDialogAccessible(
      page,
      page.getByRole('button', { name: /Forgotten your password\?|パスワードをお忘れですか/ }),
      'the forgotten-password dialog',
    );
  });
});

test.describe('as a student', () => {
  test.use({ storageState: STORAGE_STATE.student });

  test('course list, course page, profile, password change and NotFound pass axe in both schemes', async ({
    page,
  }) => {
    const courseId = readA11yData().courseId;
    const pages = [
      '/course',
      `/course/${courseId}/assignment`,
      '/profile',
      '/password-change',
      '/no/such/page',
    ];
    for (const url of pages) {
      await test.step(url, async () => {
        await open(page, url);
        await expectAccessibleInBothSchemes(page, url);
      });
    }
    await test.step('the side rail expanded under the pointer', async () => {
      await open(page, `/course/${courseId}/assignment`);
      const rail = page.locator('[data-expanded]');
      await page.getByRole('navigation', { name: /^(Course|コース)$/ }).hover();
      await expect(rail).toBeVisible();
      await expectAccessibleInBothSchemes(page, 'the course page with the side rail expanded');
      await page.mouse.move(1270, 710);
      await expect(rail).toHaveCount(0);
    });
    await test.step('logout confirmation', async () => {
      await open(page, '/course');
      await page.getByRole('button', { name: /Account menu|アカウントメニュー/ }).click();
      await expectNoAxeViolations(page, 'the open account menu');
      await expectDialogAccessible(
        page,
        page.getByRole('menuitem', { name: /Logout|ログアウト/ }),
        'the logout confirmation',
      );
    });
    await test.step('phone width: the side rail behind the burger', async () => {
      await page.setViewportSize({ width: 390, height: 800 });
      await open(page, `/course/${courseId}/assignment`);
      const burger = page.getByRole('button', { name: /Course menu|コースメニュー/ });
      await burger.click();
      await expect(burger).toHaveAttribute('aria-expanded', 'true');
      await expect(
        page
          .getByRole('navigation', { name: /^(Course|コース)$/ })
          .getByRole('link')
          .first(),
      ).toBeVisible();
      await expectAccessibleInBothSchemes(page, 'the course page on a phone, menu open');
    });
  });
});

test.describe('as staff', () => {
  test.use({ storageState: STORAGE_STATE.staff });

  test('course list, settings, another user’s profile and PyGrade pass axe in both schemes', async ({
    page,
  }) => {
    const courseId = readA11yData().courseId;
    const studentId = readA11yData().savedStudentId;
    const pages = [
      '/course',
      `/course/${courseId}/settings`,
      // The course's people (issue 21): students, and editors on their tab.
      `/course/${courseId}/members`,
      `/course/${courseId}/members?tab=editors`,
      '/profile',
      `/profile/${studentId}`,
      // PyGrade (issue 21): the queue, the jobs with their courses, the hosts and the snippet box.
      '/pygrade/',
    ];
    for (const url of pages) {
      await test.step(url, async () => {
        await open(page, url);
        if (url.includes('/members')) await expect(page.getByRole('table')).toBeVisible();
        if (url === '/pygrade/') {
          await expect(page.getByRole('table', { name: /^(Grader hosts|採点ホスト)$/ })).toBeVisible();
        }
        await expectAccessibleInBothSchemes(page, url);
      });
    }
    await test.step('create-course dialog', async () => {
      await open(page, '/course');
      await expectDialogAccessible(
        page,
        page.getByRole('button', { name: /Create course|コースを作成/ }),
        'the create-course dialog',
      );
    });
  });
});

test.describe('assignments and submissions', () => {
  test.describe('as a student', () => {
    test.use({ storageState: STORAGE_STATE.student });

    test('assignment list and detail, submissions and a graded submission pass axe in both schemes', async ({
      page,
    }) => {
      test.setTimeout(150_000);
      const data = readA11yData().assignment;
      const course = `/course/${data.courseId}`;
      await test.step('assignment list', async () => {
        await open(page, `${course}/assignment`);
        await expect(page.getByRole('link', { name: data.title, exact: true })).toBeVisible();
        await expectAccessibleInBothSchemes(page, 'the assignment list');
      });
      await test.step('assignment detail with the editor, results and leaderboard', async () => {
        await open(page, `${course}/assignment/${data.assignmentId}`);
        await wakeCodeEditors(page);
        await expect(
          page.getByRole('region', { name: /My submissions|自分の提出/ }).getByRole('listitem'),
        ).toHaveCount(1);
        await page.getByRole('button', { name: /^Small/ }).click();
        await page.getByRole('button', { name: /^Large/ }).click();
        // The visible tests run on the editor's code: their result (with a pytest file's items) is shown.
        await page.getByRole('button', { name: /Run visible tests|公開テストを実行/ }).click();
        await expect(
          page.getByRole('region', { name: /Result of the visible tests|公開テストの実行結果/ }),
        ).toContainText(/As a program \(pytest\)/, { timeout: 30_000 });
        await expectAccessibleInBothSchemes(page, 'the assignment detail');
      });
      await test.step('submission list', async () => {
        await open(page, `${course}/submission`);
        await expect(page.getByRole('table')).toBeVisible();
        await expectAccessibleInBothSchemes(page, 'the submission list');
      });
      await test.step('submission detail with a diff and a hidden test', async () => {
        await open(page, `${course}/submission/${data.submissionId}`);
        await page.getByRole('button', { name: /Small/ }).click();
        await page.getByRole('button', { name: /Large/ }).click();
        await expect(page.locator('.cm-content')).toBeVisible();
        await expectAccessibleInBothSchemes(page, 'the submission detail');
        await expectDialogAccessible(
          page,
          page.getByRole('button', { name: /Make this my final submission|これを最終提出にする/ }),
          'the final-submission confirmation',
        );
      });
      await test.step('the test-case page is not found for a student', async () => {
        await open(page, `${course}/testcase/${data.assignmentId}`);
        await expect(page.getByRole('link', { name: /Get Back To Home|ホームに戻る/ })).toBeVisible();
      });
    });
  });

  test.describe('as staff', () => {
    test.use({ storageState: STORAGE_STATE.staff });

    test('editor views, the assignment and test-case dialogs and the override pass axe in both schemes', async ({
      page,
    }) => {
      test.setTimeout(150_000);
      const data = readA11yData().assignment;
      const course = `/course/${data.courseId}`;
      await test.step('assignment list and the new-assignment dialog', async () => {
        await open(page, `${course}/assignment`);
        await expect(page.getByRole('link', { name: data.title, exact: true })).toBeVisible();
        await expectAccessibleInBothSchemes(page, 'the assignment list (editor)');
        await page.getByRole('button', { name: /New assignment|新しい課題/ }).click();
        await wakeCodeEditors(page.getByRole('dialog'));
        await expectNoAxeViolations(page, 'the new-assignment dialog');
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toBeHidden();
      });
      await test.step('test cases, the test-case dialog and a reference run', async () => {
        await open(page, `${course}/testcase/${data.assignmentId}`);
        await expect(page.getByRole('table')).toBeVisible();
        await wakeCodeEditors(page);
        await page.getByRole('button', { name: /Run against reference solution|模範解答で実行/ }).click();
        await expect(page.getByRole('region', { name: /Test results|テスト結果/ })).toContainText(/2/, {
          timeout: 30_000,
        });
        await expectAccessibleInBothSchemes(page, 'the test-case page');
        await page.getByRole('button', { name: /^(Edit Small|Small を編集)$/ }).click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await expectNoAxeViolations(page, 'the test-case dialog');
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toBeHidden();
        // A pytest test's dialog shows its module's check and the points that follow its tests.
        await page
          .getByRole('button', { name: /^(Edit As a program \(pytest\)|As a program \(pytest\) を編集)$/ })
          .click();
        await expect(
          page.getByRole('region', { name: /Check of the test file|テストファイルの確認/ }),
        ).toBeVisible();
        await expectNoAxeViolations(page, 'the test-case dialog of a pytest test');
        await page.keyboard.press('Escape');
      });
      await test.step('submissions of everyone, filtered to the assignment', async () => {
        await open(page, `${course}/submission?assignment=${data.assignmentId}`);
        await expect(page.getByRole('table')).toBeVisible();
        await expectAccessibleInBothSchemes(page, 'the submission list (editor)');
      });
      await test.step('a submission with the override dialog', async () => {
        await open(page, `${course}/submission/${data.submissionId}`);
        await page.getByRole('button', { name: /Small/ }).first().click();
        await expectAccessibleInBothSchemes(page, 'the submission detail (editor)');
        await expectDialogAccessible(
          page,
          page.getByRole('button', { name: /Change the result of Small|Small の結果を変更/ }),
          'the override dialog',
        );
      });
    });
  });
});

test.describe('quizzes', () => {
  test.describe('as a student', () => {
    test.use({ storageState: STORAGE_STATE.student });

    test('the quiz list, an open quiz with its questions marked, an upcoming and a closed one pass axe in both schemes', async ({
      page,
    }) => {
      test.setTimeout(150_000);
      const pages = readA11yData().quizzes;
      await test.step('quiz list', async () => {
        await open(page, pages.list);
        await expect(page.getByRole('table').first()).toBeVisible();
        await expectAccessibleInBothSchemes(page, 'the quiz list');
      });
      await test.step('an open quiz: every kind of question, unanswered ones marked', async () => {
        await open(page, pages.open);
        await expect(page.getByRole('region', { name: /^(Question|問) 6$/ })).toBeVisible();
        // Nothing answered: submitting only marks the questions and sends nothing.
        await page.getByRole('button', { name: /^(Submit answers|解答を提出)$/ }).click();
        await expect(page.locator('[data-unanswered]').first()).toBeVisible();
        await expectAccessibleInBothSchemes(page, 'an open quiz');
      });
      for (const [what, url] of [
        ['an upcoming timed quiz', pages.upcoming],
        ['a closed quiz', pages.closed],
      ] as const) {
        await test.step(what, async () => {
          await open(page, url);
          await expectAccessibleInBothSchemes(page, what);
        });
      }
    });
  });

  test.describe('as staff', () => {
    test.use({ storageState: STORAGE_STATE.staff });

    test('the editor list, preview, results, a submission and the quiz editor pass axe in both schemes', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      const pages = readA11yData().quizzes;
      await test.step('quiz list (editor)', async () => {
        await open(page, pages.list);
        await expect(page.getByRole('table').first()).toBeVisible();
        await expectAccessibleInBothSchemes(page, 'the quiz list (editor)');
      });
      await test.step('overview with the preview, keys shown', async () => {
        await open(page, pages.open);
        await page.getByRole('switch', { name: /Show correct answers|正解を表示/ }).check();
        await expectAccessibleInBothSchemes(page, 'the quiz overview (editor)');
      });
      await test.step('results', async () => {
        await open(page, `${pages.closed}?tab=results`);
        await expect(page.getByRole('table').first()).toBeVisible();
        await expectAccessibleInBothSchemes(page, 'the quiz results');
      });
      await test.step('a submission under review', async () => {
        await open(page, pages.closedSubmission);
        await expectAccessibleInBothSchemes(page, 'a quiz submission');
      });
      await test.step('the quiz editor: new, its preview, and a quiz whose questions are locked', async () => {
        await open(page, `${pages.list}?edit=new`);
        const dialog = page.getByRole('dialog');
        await expect(dialog.getByRole('region', { name: /^(Question|問) 1$/ })).toBeVisible();
        await expectNoAxeViolations(page, 'the new-quiz dialog');
        await dialog.getByRole('tab', { name: /Preview as a student|学生の画面でプレビュー/ }).click();
        await expectNoAxeViolations(page, 'the new-quiz preview');
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
        const closedQuizId = pages.closed.split('/')[4];
        await open(page, `${pages.list}?edit=${closedQuizId}`);
        await expect(
          page.getByRole('dialog').getByText(/^(Questions locked|問題は変更できません)$/),
        ).toBeVisible();
        await expectNoAxeViolations(page, 'the quiz editor with locked questions');
      });
    });
  });
});

test.describe('calendar', () => {
  const views = (courseId: number) => [
    `/course/${courseId}/calendar`,
    `/course/${courseId}/calendar?view=week`,
    `/course/${courseId}/calendar?view=list`,
  ];

  test.describe('as a student', () => {
    test.use({ storageState: STORAGE_STATE.student });

    test('month, week and list views and an event’s details pass axe in both schemes', async ({ page }) => {
      test.setTimeout(120_000);
      const courseId = readA11yData().courseId;
      for (const url of views(courseId)) {
        await test.step(url, async () => {
          await open(page, url);
          await expect(
            page.getByRole('textbox', { name: /Private calendar URL|非公開のカレンダー URL/ }),
          ).toBeVisible();
          await expectAccessibleInBothSchemes(page, url);
        });
      }
      await test.step('an event’s details', async () => {
        await open(page, `/course/${courseId}/calendar`);
        await expectDialogAccessible(
          page,
          page
            .getByRole('table')
            .getByRole('button', { name: /^(Lecture|講義):/ })
            .first(),
          'the event details dialog',
        );
      });
    });
  });

  test.describe('as staff', () => {
    test.use({ storageState: STORAGE_STATE.staff });

    test('the editor’s calendar, the event dialog and the feed reset confirmation pass axe', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      const courseId = readA11yData().courseId;
      await open(page, `/course/${courseId}/calendar`);
      await expectAccessibleInBothSchemes(page, 'the calendar (editor)');
      await expectDialogAccessible(
        page,
        page.getByRole('button', { name: /New event|予定を追加/ }),
        'the new-event dialog',
      );
      await expectDialogAccessible(
        page,
        page.getByRole('button', { name: /Reset URL|URL を再発行/ }),
        'the feed reset confirmation',
      );
    });
  });
});

test.describe('lecture videos', () => {
  test.describe('as a student', () => {
    test.use({ storageState: STORAGE_STATE.student });

    test('the video list and a video with its player and progress pass axe in both schemes', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      const courseId = readA11yData().courseId;
      await open(page, `/course/${courseId}/video`);
      await expect(page.getByRole('link', { name: /Welcome to the course/ })).toBeVisible();
      await expectAccessibleInBothSchemes(page, 'the video list');
      // The demo's Vimeo video plays in the fake Vimeo player the config points at.
      await open(page, `/course/${courseId}/vimeo/76979871`);
      await expect(page.getByRole('region', { name: /My progress|自分の視聴状況/ })).toBeVisible();
      // The player is another origin's frame (Vimeo's; here the fake's): scanned with the page.
      await expectAccessibleInBothSchemes(page, 'a video', { frames: true });
    });
  });

  test.describe('as staff', () => {
    test.use({ storageState: STORAGE_STATE.staff });

    test('the managed list, the statistics and the video dialogs pass axe', async ({ page }) => {
      test.setTimeout(120_000);
      const courseId = readA11yData().courseId;
      await open(page, `/course/${courseId}/video`);
      await expect(page.getByRole('button', { name: /Add video|動画を追加/ })).toBeVisible();
      await expectAccessibleInBothSchemes(page, 'the video list (editor)');
      await expectDialogAccessible(
        page,
        page.getByRole('button', { name: /Add video|動画を追加/ }),
        'the add dialog',
      );
      await expectDialogAccessible(
        page,
        page.getByRole('button', { name: /^(Video settings|動画の設定)$/ }),
        'the settings dialog',
      );
      await open(page, `/course/${courseId}/video?tab=stats`);
      await expect(page.getByRole('table')).toBeVisible();
      await expectAccessibleInBothSchemes(page, 'the video statistics');
    });
  });
});

test.describe('workbooks', () => {
  test.describe('as a student', () => {
    test.use({ storageState: STORAGE_STATE.student });

    test('the configurations and a notebook with outputs pass axe in both schemes', async ({ page }) => {
      test.setTimeout(120_000);
      const courseId = readA11yData().courseId;
      await open(page, `/course/${courseId}/workbook`);
      await expectAccessibleInBothSchemes(page, 'the workbook configurations');
      await page.getByRole('button', { name: /^(Open Python lab|「Python lab」を開く)$/ }).click();
      await expect(page.getByRole('timer')).toBeVisible();
      for (const n of [2, 3, 4]) {
        await page.getByRole('button', { name: new RegExp(`^(Run cell ${n}|セル ${n} を実行)$`) }).click();
      }
      await expect(page.getByRole('img', { name: /Figure from cell 4|セル 4 の図/ })).toBeVisible({
        timeout: 30_000,
      });
      await expectAccessibleInBothSchemes(page, 'a notebook with a table and a chart');
      // End the session: a student has one per course, and the workbook journey opens its own.
      await page.getByRole('button', { name: /^(End session|セッションを終了)$/ }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: /^(End session|セッションを終了)$/ })
        .click();
      await expect(page.getByRole('timer')).toHaveCount(0);
    });
  });

  test.describe('as staff', () => {
    test.use({ storageState: STORAGE_STATE.staff });

    test('the managed configurations and the configuration dialog pass axe', async ({ page }) => {
      test.setTimeout(120_000);
      const courseId = readA11yData().courseId;
      await open(page, `/course/${courseId}/workbook`);
      await expectAccessibleInBothSchemes(page, 'the workbook configurations (editor)');
      await expectDialogAccessible(
        page,
        page.getByRole('button', { name: /^(New configuration|新しい構成)$/ }),
        'the configuration dialog',
      );
    });
  });
});

test.describe('forum', () => {
  /** The editor dialog with Markdown of every common kind, then its preview. */
  async function editorWithPreview(
    page: Page,
    what: string,
    options?: (dialog: Locator) => Promise<void>,
  ): Promise<void> {
    await page.getByRole('button', { name: /^(New post|新規投稿)$/ }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('textbox', { name: /^(Title|タイトル)/ })).toBeVisible();
    await options?.(dialog);
    await dialog
      .getByRole('textbox', { name: /^(Content|本文)/ })
      .fill('## Heading\n\n**bold**, `code`, [a link](https://example.com)\n\n```python\nprint(1)\n```');
    await expectNoAxeViolations(page, what);
    await dialog.getByRole('tab', { name: /^(Preview|プレビュー)$/ }).click();
    await expect(dialog.getByRole('heading', { name: 'Heading' })).toBeVisible();
    await expectNoAxeViolations(page, `${what}: preview`);
    await page.keyboard.press('Escape');
    // Something was written: closing asks 'Sure to discard the changes?' first.
    const confirm = page.getByRole('dialog').filter({ hasText: /Sure to discard the changes\?|変更を破棄/ });
    await expect(confirm).toBeVisible();
    await expectNoAxeViolations(page, 'the discard confirmation');
    await confirm.getByRole('button', { name: /^(Discard|破棄する)$/ }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
  }

  test.describe('as a student', () => {
    test.use({ storageState: STORAGE_STATE.student });

    test('the forum list, a post with comments, files and upvoters, and the editor with its preview pass axe in both schemes', async ({
      page,
    }) => {
      test.setTimeout(150_000);
      const data = readA11yData().forum;
      const list = `/course/${data.courseId}/forum`;
      await test.step('forum list: announcements, then discussions', async () => {
        await open(page, list);
        // Announcements may be none yet: the tab shows its list or its empty state, not skeletons.
        await expect(page.getByRole('tabpanel')).toBeVisible();
        await expect(page.getByRole('tabpanel').locator('[aria-busy="true"]')).toHaveCount(0);
        await expectAccessibleInBothSchemes(page, 'the forum announcements');
        await open(page, `${list}?tab=discussion`);
        await expect(page.getByRole('link', { name: new RegExp(data.discussion.title) })).toBeVisible();
        await expectAccessibleInBothSchemes(page, 'the forum discussions');
      });
      await test.step('a post with its comments, attachment and upvoters', async () => {
        await open(page, `${list}/${data.discussion.id}`);
        await expect(page.getByText('Thank you!')).toBeVisible();
        await page
          .getByRole('button', { name: /^(1 upvote: show who|いいね 1 件: 誰がいいねしたかを表示)$/ })
          .first()
          .click();
        await expect(page.getByRole('list', { name: /^(Upvoted by|いいねした人)$/ })).toBeVisible();
        await expectAccessibleInBothSchemes(page, 'a forum post');
      });
      await test.step('the new-post dialog and its preview', async () => {
        await open(page, `${list}?tab=discussion`);
        await editorWithPreview(page, 'the new-post dialog');
      });
    });
  });

  test.describe('as staff', () => {
    test.use({ storageState: STORAGE_STATE.staff });

    test('the forum with the scheduled tab, a post with its actions and the announcement editor pass axe in both schemes', async ({
      page,
    }) => {
      test.setTimeout(150_000);
      const data = readA11yData().forum;
      const list = `/course/${data.courseId}/forum`;
      for (const url of [list, `${list}?tab=scheduled`]) {
        await test.step(url, async () => {
          await open(page, url);
          await expectAccessibleInBothSchemes(page, url);
        });
      }
      await test.step('a post with the managers’ actions', async () => {
        await open(page, `${list}/${data.discussion.id}`);
        await expect(page.getByText('Thank you!')).toBeVisible();
        await expectAccessibleInBothSchemes(page, 'a forum post (staff)');
      });
      await test.step('the announcement editor with a schedule, and its preview', async () => {
        await open(page, list);
        await editorWithPreview(page, 'the announcement editor', async (dialog) => {
          await dialog.getByRole('checkbox', { name: /^(Schedule|予約投稿)$/ }).check();
          await expect(dialog.getByLabel(/^(Publish at|公開日時)/)).toBeVisible();
        });
      });
    });
  });
});

test.describe('assessment', () => {
  test.describe('as a student', () => {
    test.use({ storageState: STORAGE_STATE.student });

    test('the student’s own analysis with its charts passes axe in both schemes', async ({ page }) => {
      test.setTimeout(120_000);
      const courseId = readA11yData().courseId;
      const studentId = readA11yData().savedStudentId;
      // Assessment sends a student to their own detail.
      await page.goto(`/course/${courseId}/assessment`);
      await expect(page).toHaveURL(new RegExp(`/course/${courseId}/assessment/${studentId}$`));
      await open(page, `/course/${courseId}/assessment/${studentId}`);
      await expect(page.getByRole('img', { name: /Class distribution of|のクラスの分布/ })).toBeVisible();
      await expectAccessibleInBothSchemes(page, 'a student’s assessment');
    });
  });

  test.describe('as staff', () => {
    test.use({ storageState: STORAGE_STATE.staff });

    test('the table, skills, workshops, a student’s analysis and the dialogs pass axe', async ({ page }) => {
      test.setTimeout(150_000);
      const courseId = readA11yData().courseId;
      const list = `/course/${courseId}/assessment`;
      await open(page, list);
      await expect(page.getByRole('table')).toBeVisible();
      await expectAccessibleInBothSchemes(page, 'the assessment table');
      await open(page, `${list}?tab=skills`);
      await expect(page.getByRole('table')).toBeVisible();
      await expectAccessibleInBothSchemes(page, 'the skills');
      await expectDialogAccessible(
        page,
        page.getByRole('button', { name: /^(New skill|新しいスキル)$/ }),
        'the skill dialog',
      );
      await expectDialogAccessible(
        page,
        page.getByRole('button', { name: /^(Tag items for|.+ の項目をタグ付け)/ }).first(),
        'the skill items dialog',
      );
      await open(page, `${list}?tab=workshops`);
      await expectAccessibleInBothSchemes(page, 'the workshops');
      await expectDialogAccessible(
        page,
        page.getByRole('button', { name: /^(New workshop|新しいワークショップ)$/ }),
        'the workshop dialog',
      );
      const studentId = readA11yData().savedStudentId;
      await open(page, `${list}/${studentId}`);
      await expect(page.getByRole('img', { name: /Class distribution of|のクラスの分布/ })).toBeVisible();
      await expectAccessibleInBothSchemes(page, 'a student’s assessment (staff)');
    });
  });
});
