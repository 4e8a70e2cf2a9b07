-- Issue 37's security review: groups' visibility, stored files shared by the recipients of one export, each
-- 'Enviar agora' counted by person, and the installation's own facts (whether it ever ran outside demo mode).
CREATE TABLE "arquivo_destinatarios" (
	"arquivo_id" uuid NOT NULL,
	"usuario_id" text NOT NULL,
	CONSTRAINT "arquivo_destinatarios_arquivo_id_usuario_id_pk" PRIMARY KEY("arquivo_id","usuario_id")
);
--> statement-breakpoint
CREATE TABLE "instalacao" (
	"chave" text PRIMARY KEY NOT NULL,
	"valor" text NOT NULL,
	"data_atualizacao" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pedidos_envio" (
	"id" serial PRIMARY KEY NOT NULL,
	"usuario_id" text NOT NULL,
	"em" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "arquivos_assinatura" DROP CONSTRAINT "arquivos_assinatura_usuario_id_usuarios_id_fk";
--> statement-breakpoint
ALTER TABLE "arquivos_assinatura" ADD COLUMN "identidade" text;--> statement-breakpoint
ALTER TABLE "arquivos_assinatura" ADD COLUMN "tamanho" integer;--> statement-breakpoint
-- Files stored before: each keeps its one recipient. Its identity was not recorded: on a panel without RLS it is ''
-- (what it is now); on one with RLS, one no identity equals, so that such a file is no longer served.
UPDATE "arquivos_assinatura" AS a SET
	"tamanho" = octet_length(a."conteudo"),
	"identidade" = CASE WHEN EXISTS (
		SELECT 1 FROM "envios_assinatura" e JOIN "assinaturas" s ON s."id" = e."assinatura_id"
		JOIN "paineis" p ON p."id" = s."painel_id" WHERE e."id" = a."envio_id" AND p."usa_rls"
	) THEN 'anterior:' || a."id" ELSE '' END;--> statement-breakpoint
ALTER TABLE "arquivos_assinatura" ALTER COLUMN "identidade" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "arquivos_assinatura" ALTER COLUMN "tamanho" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "grupos" ADD COLUMN "visibilidade" text;--> statement-breakpoint
ALTER TABLE "arquivo_destinatarios" ADD CONSTRAINT "arquivo_destinatarios_arquivo_id_arquivos_assinatura_id_fk" FOREIGN KEY ("arquivo_id") REFERENCES "public"."arquivos_assinatura"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "arquivo_destinatarios" ADD CONSTRAINT "arquivo_destinatarios_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pedidos_envio_usuario_em" ON "pedidos_envio" USING btree ("usuario_id","em");--> statement-breakpoint
INSERT INTO "arquivo_destinatarios" ("arquivo_id", "usuario_id") SELECT "id", "usuario_id" FROM "arquivos_assinatura";--> statement-breakpoint
CREATE UNIQUE INDEX "arquivos_assinatura_envio_identidade" ON "arquivos_assinatura" USING btree ("envio_id","identidade");--> statement-breakpoint
ALTER TABLE "arquivos_assinatura" DROP COLUMN "usuario_id";