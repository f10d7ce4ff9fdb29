import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { describe, expect, it } from 'vitest';
import { brand } from '../../../contract/brand.ts';
import JobBoard from '../../../src/pages/_components/JobBoard.astro';

describe('the job board of /careers', () => {
  it('shows "No Open Positions Currently" with mailto links and a link to the home contact section when empty', async () => {
    const container = await AstroContainer.create();
    const html = await container.renderToString(JobBoard, { props: { jobs: [] } });
    expect(html).toContain('No Open Positions Currently');
    expect(html).toContain(`href="mailto:${brand.email}"`);
    expect(html).toContain('href="/#contact"');
    expect(html).not.toContain('data-job-card');
  });

  it('selects the first job and builds Apply Now from the job title', async () => {
    const job = (id: string, title: string) => ({
      id,
      title,
      department: 'Engineering',
      type: 'Full-time',
      location: 'Remote',
      description: 'A role.',
      requirements: ['TypeScript'],
      responsibilities: ['Ship features'],
    });
    const container = await AstroContainer.create();
    const html = await container.renderToString(JobBoard, {
      props: { jobs: [job('a', 'Engineer & Co'), job('b', 'Scientist')] },
    });
    expect(html).not.toContain('No Open Positions Currently');
    expect(html).toMatch(/class="job-card selected[^"]*" data-job-card="a"/);
    expect(html).toContain(`mailto:${brand.email}?subject=Application%3A%20Engineer%20%26%20Co`);
    expect(html).toMatch(/data-job-panel="b"[^>]*hidden/);
  });
});
