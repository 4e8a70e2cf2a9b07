CREATE TABLE "exportacoes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"usuario_id" text NOT NULL,
	"painel_id" integer NOT NULL,
	"formato" text NOT NULL,
	"power_bi_export_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"report_id" text NOT NULL,
	"criada_em" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "favoritos" (
	"usuario_id" text NOT NULL,
	"painel_id" integer NOT NULL,
	"criado_em" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "favoritos_usuario_id_painel_id_pk" PRIMARY KEY("usuario_id","painel_id")
);
--> statement-breakpoint
CREATE TABLE "visoes_salvas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"painel_id" integer NOT NULL,
	"usuario_id" text NOT NULL,
	"nome" text NOT NULL,
	"estado" text NOT NULL,
	"pagina" text,
	"criada_em" timestamp with time zone DEFAULT now() NOT NULL,
	"atualizada_em" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "paineis" ADD COLUMN "permite_exportacao" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "exportacoes" ADD CONSTRAINT "exportacoes_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exportacoes" ADD CONSTRAINT "exportacoes_painel_id_paineis_id_fk" FOREIGN KEY ("painel_id") REFERENCES "public"."paineis"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favoritos" ADD CONSTRAINT "favoritos_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favoritos" ADD CONSTRAINT "favoritos_painel_id_paineis_id_fk" FOREIGN KEY ("painel_id") REFERENCES "public"."paineis"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visoes_salvas" ADD CONSTRAINT "visoes_salvas_painel_id_paineis_id_fk" FOREIGN KEY ("painel_id") REFERENCES "public"."paineis"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visoes_salvas" ADD CONSTRAINT "visoes_salvas_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exportacoes_criada" ON "exportacoes" USING btree ("criada_em");--> statement-breakpoint
CREATE INDEX "exportacoes_painel" ON "exportacoes" USING btree ("painel_id");--> statement-breakpoint
CREATE INDEX "favoritos_painel" ON "favoritos" USING btree ("painel_id");--> statement-breakpoint
CREATE UNIQUE INDEX "visoes_salvas_nome_unico" ON "visoes_salvas" USING btree ("usuario_id","painel_id",lower("nome"));--> statement-breakpoint
CREATE INDEX "visoes_salvas_painel" ON "visoes_salvas" USING btree ("painel_id");--> statement-breakpoint
CREATE INDEX "visualizacoes_usuario_momento" ON "visualizacoes" USING btree ("usuario_id","momento");