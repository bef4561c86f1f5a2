import type { Notebook } from '@kadai/contracts';
import type { Tx } from '../../db/client.ts';
import type { DemoWorld } from '../../demo/world.ts';
import { workbookConfigs } from '../../db/schema-workbooks.ts';

/** The demo lab: state kept between cells, a pandas table and a matplotlib chart. */
export const DEMO_STARTER: Notebook = {
  cells: [
    {
      id: 'intro',
      cell_type: 'markdown',
      source:
        '# Lab 1: lists and charts\n\nRun each cell with **Shift+Enter**. Variables stay between cells.',
    },
    {
      id: 'data',
      cell_type: 'code',
      source: 'scores = [72, 85, 91, 64, 78]\nmean = sum(scores) / len(scores)\nprint(f"mean = {mean}")',
      execution_count: null,
      outputs: [],
    },
    {
      id: 'table',
      cell_type: 'code',
      source: 'import pandas as pd\npd.DataFrame({"student": list("ABCDE"), "score": scores})',
      execution_count: null,
      outputs: [],
    },
    {
      id: 'chart',
      cell_type: 'code',
      source:
        'import matplotlib.pyplot as plt\nplt.bar(range(len(scores)), scores)\nplt.axhline(mean, color="red")\nplt.title("Scores")',
      execution_count: null,
      outputs: [],
    },
  ],
};

/** Demo content of the seed: one workbook configuration in the demo course. */
export async function seedDemoWorkbooks(tx: Tx, world: DemoWorld): Promise<void> {
  await tx.insert(workbookConfigs).values({
    courseId: world.course.id,
    name: 'Python lab',
    description: 'A Python 3 notebook with **numpy**, **pandas** and **matplotlib**. Sessions last an hour.',
    lifetimeMinutes: 60,
    maxExtensionMinutes: 60,
    memoryMb: 1024,
    cpuSeconds: 600,
    starter: DEMO_STARTER,
  });
}
