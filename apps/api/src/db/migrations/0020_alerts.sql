CREATE TABLE "alerta_grupos" (
	"grupo_id" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alerta_incidentes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"evento" text NOT NULL,
	"chave" text NOT NULL,
	"paineis" jsonb DEFAULT '[]' NOT NULL,
	"mensagem" text,
	"aberto_em" timestamp with time zone NOT NULL,
	"fechado_em" timestamp with time zone,
	"aviso_abertura" text NOT NULL,
	"aviso_abertura_em" timestamp with time zone,
	"aviso_fechamento" text,
	"aviso_fechamento_em" timestamp with time zone,
	"enviados_para" jsonb DEFAULT '[]' NOT NULL,
	"ocupado_por" text,
	"ocupado_ate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "alerta_usuarios" (
	"usuario_id" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alertas" (
	"id" integer PRIMARY KEY NOT NULL,
	"eventos" jsonb DEFAULT '[]' NOT NULL,
	"atualizado_em" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alerta_grupos" ADD CONSTRAINT "alerta_grupos_grupo_id_grupos_id_fk" FOREIGN KEY ("grupo_id") REFERENCES "public"."grupos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerta_usuarios" ADD CONSTRAINT "alerta_usuarios_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alerta_incidentes_aberto" ON "alerta_incidentes" USING btree ("evento","chave") WHERE "alerta_incidentes"."fechado_em" is null;--> statement-breakpoint
CREATE INDEX "alerta_incidentes_aviso" ON "alerta_incidentes" USING btree ("aberto_em") WHERE "alerta_incidentes"."aviso_abertura" = 'pendente' or "alerta_incidentes"."aviso_fechamento" = 'pendente';--> statement-breakpoint
CREATE INDEX "alerta_incidentes_fechado" ON "alerta_incidentes" USING btree ("fechado_em");