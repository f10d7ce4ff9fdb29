import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { siteIconNames } from './components/site-icons.ts';

/** Sections of the user guide, one MDX file each; the file name is the section id used in URL hashes. */
const guide = defineCollection({
  loader: glob({ pattern: '*.mdx', base: './src/content/guide' }),
  schema: z.object({
    title: z.string().describe('Heading of the section'),
    order: z.number().int().describe('Position of the section in the guide, from 1'),
    summary: z.string().describe('One sentence shown in the quick-navigation panel'),
  }),
});

/** Legal pages (privacy policy, terms, GDPR), one MDX file each named after its route. */
const legal = defineCollection({
  loader: glob({ pattern: '*.mdx', base: './src/content/legal' }),
  schema: z.object({
    title: z.string().describe('Page title and heading'),
    description: z.string().describe('One-sentence summary for search engines'),
    updated: z.coerce.date().describe('Date the text last changed, shown as "Last updated"'),
  }),
});

/** Marketing pages about one feature, one MDX file each named after its route. */
const features = defineCollection({
  loader: glob({ pattern: '*.mdx', base: './src/content/features' }),
  schema: z.object({
    title: z.string().describe('Page heading'),
    description: z.string().describe('One-sentence summary for search engines and the lead paragraph'),
    highlights: z
      .array(z.object({ title: z.string(), text: z.string() }).describe('One key point, shown as a card'))
      .min(3)
      .describe('Key points shown under the lead'),
  }),
});

/** Open positions shown on /careers (SPEC §3 job posting); an empty file shows the empty state. */
const jobs = defineCollection({
  loader: file('./src/content/jobs/jobs.json'),
  schema: z.object({
    id: z.string().describe('Stable slug of the posting'),
    title: z.string().describe('Job title, also the subject of the application e-mail'),
    department: z.string().describe('Team the person joins'),
    type: z.string().describe('Full-time, part-time, contract…'),
    location: z.string().describe('Where the person may work from'),
    description: z.string().describe('A short paragraph about the role'),
    requirements: z.array(z.string()).describe('What the candidate brings, one item a line'),
    responsibilities: z.array(z.string()).describe('What the person will do, one item a line'),
  }),
});

/** Benefits listed on /careers (SPEC §3 benefit item). */
const benefits = defineCollection({
  loader: file('./src/content/benefits/benefits.json'),
  schema: z.object({
    id: z.string().describe('Stable slug of the benefit'),
    icon: z.enum(siteIconNames).describe('Name of the icon from the site set drawn beside the title; decorative'),
    title: z.string().describe('Short name of the benefit'),
    description: z.string().describe('One or two sentences about it'),
  }),
});

export const collections = { guide, legal, features, jobs, benefits };
