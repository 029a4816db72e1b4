// /messages/settings/embed/g/{groupSlug}/: one group's widget: its embed code (with data-group), the
// hosted chat page, and its look, allowed origins and visitor form, edited beside a live preview of
// the unsaved values. With identity verification on, how a site signs its users.
import type { TChatGroupSettings } from '@titan/contracts';
import { ExternalLinkIcon, SearchXIcon } from 'lucide-react';
import type { FormEvent } from 'react';
import { useWatch } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { toast } from 'sonner';

import { EmptyState } from '../../../components/empty-state';
import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { FormAlert } from '../../../components/form/form-alert';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { businessEmbedPath, hostedChatPath } from '../../../config/paths';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useCurrentMembership } from '../../../lib/session/current-business';
import { useChatGroups } from '../api/get-chat-groups';
import { useWidgetSettings } from '../api/get-widget-settings';
import { useUpdateChatGroup } from '../api/update-chat-group';
import { AppearanceFields } from '../components/appearance-fields';
import { CodeBlock } from '../components/code-block';
import { EmbedPage } from '../components/embed-page';
import { FormSection } from '../components/form-section';
import { GroupOriginsField } from '../components/group-origins-field';
import { commitOriginDraft, useOriginDraft } from '../components/origins-editor';
import { IdentitySnippets } from '../components/identity-snippets';
import { VisitorFormBuilder } from '../components/visitor-form-builder';
import { WidgetLanguageForm } from '../components/widget-language-form';
import { WidgetPreview } from '../components/widget-preview';
import { useGroupForm, type TGroupForm } from '../hooks/use-group-form';
import { CHAT_GROUPS_STRINGS, EMBED_STRINGS as S, LANGUAGE_STRINGS } from '../strings';
import { groupFormFieldPaths, toFormValues } from '../utils/group-form';
import { embedSnippet } from '../utils/snippet';

function LivePreview({ form, title }: { form: TGroupForm; title: string }) {
  const [color, greeting, position, fields] = useWatch({
    control: form.control,
    name: ['color', 'greeting', 'launcher_position', 'visitor_form'],
  });
  return (
    <FormSection title={S.preview.title} description={S.preview.description}>
      <WidgetPreview title={title} color={color} greeting={greeting} position={position} fields={fields} />
    </FormSection>
  );
}

function GroupWidgetForm({ group }: { group: TChatGroupSettings }) {
  const form = useGroupForm(group);
  const update = useUpdateChatGroup();
  const { errors, isSubmitting, isDirty } = form.formState;
  const draft = useOriginDraft();
  const pending = draft.text.trim() !== '';
  const unsaved = useUnsavedChanges(isDirty || pending);

  const save = form.handleSubmit(async (request) => {
    try {
      // Only what this screen edits: the name and slug are the chat groups tab's business.
      const saved = await update.mutateAsync({
        id: group.id,
        color: request.color,
        greeting: request.greeting,
        launcher_position: request.launcher_position,
        allowed_origins: request.allowed_origins,
        visitor_form: request.visitor_form,
      });
      form.reset(toFormValues(saved));
      toast.success(S.saved);
    } catch (error) {
      applyApiErrorToForm(form, groupFormFieldPaths(form.getValues()), error);
    }
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // An origin typed but not added is added now, or the save is refused with its field named.
    const current = form.getValues('allowed_origins');
    const origins = commitOriginDraft(draft, current);
    if (!origins) return;
    if (origins !== current) form.setValue('allowed_origins', origins, { shouldDirty: true });
    void save(event);
  };

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <form noValidate aria-label={CHAT_GROUPS_STRINGS.form.label} onSubmit={onSubmit} className="grid gap-6">
        {unsaved.dialog}
        <FormAlert message={errors.root?.server?.message} />
        <FormSection title={CHAT_GROUPS_STRINGS.appearance.title}>
          <AppearanceFields form={form} />
        </FormSection>
        <FormSection title={CHAT_GROUPS_STRINGS.origins.title}>
          <GroupOriginsField form={form} draft={draft} />
        </FormSection>
        <FormSection
          title={CHAT_GROUPS_STRINGS.visitorForm.title}
          description={CHAT_GROUPS_STRINGS.visitorForm.description}
        >
          <VisitorFormBuilder form={form} />
        </FormSection>
        <div>
          <Button type="submit" disabled={isSubmitting || (!isDirty && !pending)}>
            {isSubmitting ? S.saving : S.save}
          </Button>
        </div>
      </form>
      <div className="lg:sticky lg:top-4">
        <LivePreview form={form} title={group.name} />
      </div>
    </div>
  );
}

function IdentityNote() {
  // Verification is business-wide; sites embedding a group sign their users the same way.
  const settings = useWidgetSettings();
  if (!settings.data?.identity_verification) return null;
  return (
    <FormSection title={S.identity.title} description={S.identity.on}>
      <IdentitySnippets />
    </FormSection>
  );
}

function GroupEmbedSettings({ group, businessCode }: { group: TChatGroupSettings; businessCode: string }) {
  const snippet = embedSnippet({ origin: window.location.origin, businessCode, groupSlug: group.slug });
  return (
    <div className="grid gap-6">
      <FormSection title={S.snippetTitle} description={S.snippetGroupText}>
        <CodeBlock code={snippet} label={S.snippetLabel} copyLabel={S.copySnippet} />
      </FormSection>
      <FormSection title={S.hostedTitle} description={S.hostedText}>
        <Button asChild variant="outline" size="sm">
          {/* Served by the server, not this app: a plain link, so the browser loads it from there. */}
          <a href={hostedChatPath(businessCode, group.slug)} target="_blank" rel="noreferrer">
            <ExternalLinkIcon aria-hidden="true" />
            {S.openHosted}
          </a>
        </Button>
      </FormSection>
      <GroupWidgetForm key={group.id} group={group} />
      <FormSection title={LANGUAGE_STRINGS.title} description={LANGUAGE_STRINGS.description}>
        <WidgetLanguageForm key={group.id} group={group} />
      </FormSection>
      <IdentityNote />
    </div>
  );
}

function GroupEmbedContent({ slug, businessCode }: { slug: string; businessCode: string }) {
  const groups = useChatGroups();
  if (groups.isPending) return <SectionLoading />;
  if (groups.isError) return <SectionError error={groups.error} onRetry={() => void groups.refetch()} />;
  const group = groups.data.find((g) => g.slug === slug);
  if (!group) return <EmptyState icon={SearchXIcon} title={slug} text={S.groupNotFound} />;
  return <GroupEmbedSettings group={group} businessCode={businessCode} />;
}

export function GroupEmbedRoute() {
  const slug = useParams().groupSlug ?? '';
  const businessCode = useCurrentMembership()?.unique_code ?? null;
  const groups = useChatGroups();
  const name = groups.data?.find((g) => g.slug === slug)?.name ?? slug;
  return (
    <EmbedPage
      title={S.groupTitle(name)}
      description={S.groupDescription}
      links={
        businessCode ? (
          <Link to={businessEmbedPath(businessCode)} className="text-muted-foreground hover:text-foreground">
            {S.businessLink}
          </Link>
        ) : null
      }
    >
      {businessCode === null ? (
        <SectionLoading />
      ) : (
        <GroupEmbedContent slug={slug} businessCode={businessCode} />
      )}
    </EmbedPage>
  );
}
