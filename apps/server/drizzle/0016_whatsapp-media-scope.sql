-- Media are served only to who may see a conversation holding them. whatsapp_media.uploaded_by
-- keeps who uploaded a file to send (they keep access to it); wa_messages_media_idx finds the
-- messages holding a media by the id in their payload (see waMessageMediaId in the schema; queries
-- must use the same expression). Partial: most messages hold no media.
ALTER TABLE "whatsapp_media" ADD COLUMN "uploaded_by" bigint;--> statement-breakpoint
CREATE INDEX "wa_messages_media_idx" ON "wa_messages" USING btree ((case
    when "meta_data" ->> 'type' in ('image', 'video', 'audio', 'document', 'sticker')
      then "meta_data" -> ("meta_data" ->> 'type') ->> 'id'
    when "meta_data" ->> 'type' = 'template'
      then coalesce(
        "meta_data" #>> '{template,components,0,image,id}',
        "meta_data" #>> '{template,components,0,video,id}',
        "meta_data" #>> '{template,components,0,document,id}'
      )
  end)) WHERE (case
    when "wa_messages"."meta_data" ->> 'type' in ('image', 'video', 'audio', 'document', 'sticker')
      then "wa_messages"."meta_data" -> ("wa_messages"."meta_data" ->> 'type') ->> 'id'
    when "wa_messages"."meta_data" ->> 'type' = 'template'
      then coalesce(
        "wa_messages"."meta_data" #>> '{template,components,0,image,id}',
        "wa_messages"."meta_data" #>> '{template,components,0,video,id}',
        "wa_messages"."meta_data" #>> '{template,components,0,document,id}'
      )
  end) is not null;