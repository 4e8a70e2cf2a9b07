CREATE TABLE "arquivos_assinatura" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"usuario_id" text NOT NULL,
	"envio_id" uuid NOT NULL,
	"nome" text NOT NULL,
	"tipo" text NOT NULL,
	"conteudo" "bytea" NOT NULL,
	"expira_em" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "assinatura_grupos" (
	"assinatura_id" uuid NOT NULL,
	"grupo_id" text NOT NULL,
	CONSTRAINT "assinatura_grupos_assinatura_id_grupo_id_pk" PRIMARY KEY("assinatura_id","grupo_id")
);
--> statement-breakpoint
CREATE TABLE "assinatura_usuarios" (
	"assinatura_id" uuid NOT NULL,
	"usuario_id" text NOT NULL,
	CONSTRAINT "assinatura_usuarios_assinatura_id_usuario_id_pk" PRIMARY KEY("assinatura_id","usuario_id")
);
--> statement-breakpoint
CREATE TABLE "assinaturas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"painel_id" integer NOT NULL,
	"usuario_id" text NOT NULL,
	"formato" text NOT NULL,
	"frequencia" text NOT NULL,
	"hora" text NOT NULL,
	"dia_semana" integer,
	"dia_mes" integer,
	"fuso_horario" text NOT NULL,
	"pagina" text,
	"visao_id" uuid,
	"com_destinatarios" boolean DEFAULT false NOT NULL,
	"ativa" boolean DEFAULT true NOT NULL,
	"proximo_envio" timestamp with time zone,
	"ultimo_envio" timestamp with time zone,
	"ultima_falha" text,
	"ultima_falha_em" timestamp with time zone,
	"criada_em" timestamp with time zone DEFAULT now() NOT NULL,
	"atualizada_em" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "envio_destinatarios" (
	"envio_id" uuid NOT NULL,
	"usuario_id" text NOT NULL,
	"estado" text NOT NULL,
	"identidade" text,
	"id_mensagem" text,
	"registrado_em" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "envio_destinatarios_envio_id_usuario_id_pk" PRIMARY KEY("envio_id","usuario_id")
);
--> statement-breakpoint
CREATE TABLE "envios_assinatura" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"assinatura_id" uuid NOT NULL,
	"ocorrencia" timestamp with time zone NOT NULL,
	"manual" boolean DEFAULT false NOT NULL,
	"estado" text DEFAULT 'pendente' NOT NULL,
	"tentativas" integer DEFAULT 0 NOT NULL,
	"disponivel_em" timestamp with time zone DEFAULT now() NOT NULL,
	"ocupado_ate" timestamp with time zone,
	"ocupado_por" text,
	"erro" text,
	"criado_em" timestamp with time zone DEFAULT now() NOT NULL,
	"concluido_em" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "arquivos_assinatura" ADD CONSTRAINT "arquivos_assinatura_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "arquivos_assinatura" ADD CONSTRAINT "arquivos_assinatura_envio_id_envios_assinatura_id_fk" FOREIGN KEY ("envio_id") REFERENCES "public"."envios_assinatura"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assinatura_grupos" ADD CONSTRAINT "assinatura_grupos_assinatura_id_assinaturas_id_fk" FOREIGN KEY ("assinatura_id") REFERENCES "public"."assinaturas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assinatura_grupos" ADD CONSTRAINT "assinatura_grupos_grupo_id_grupos_id_fk" FOREIGN KEY ("grupo_id") REFERENCES "public"."grupos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assinatura_usuarios" ADD CONSTRAINT "assinatura_usuarios_assinatura_id_assinaturas_id_fk" FOREIGN KEY ("assinatura_id") REFERENCES "public"."assinaturas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assinatura_usuarios" ADD CONSTRAINT "assinatura_usuarios_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assinaturas" ADD CONSTRAINT "assinaturas_painel_id_paineis_id_fk" FOREIGN KEY ("painel_id") REFERENCES "public"."paineis"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assinaturas" ADD CONSTRAINT "assinaturas_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assinaturas" ADD CONSTRAINT "assinaturas_visao_id_visoes_salvas_id_fk" FOREIGN KEY ("visao_id") REFERENCES "public"."visoes_salvas"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "envio_destinatarios" ADD CONSTRAINT "envio_destinatarios_envio_id_envios_assinatura_id_fk" FOREIGN KEY ("envio_id") REFERENCES "public"."envios_assinatura"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "envio_destinatarios" ADD CONSTRAINT "envio_destinatarios_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "envios_assinatura" ADD CONSTRAINT "envios_assinatura_assinatura_id_assinaturas_id_fk" FOREIGN KEY ("assinatura_id") REFERENCES "public"."assinaturas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "arquivos_assinatura_expira" ON "arquivos_assinatura" USING btree ("expira_em");--> statement-breakpoint
CREATE INDEX "assinatura_usuarios_usuario" ON "assinatura_usuarios" USING btree ("usuario_id");--> statement-breakpoint
CREATE INDEX "assinaturas_devidas" ON "assinaturas" USING btree ("proximo_envio") WHERE "assinaturas"."ativa";--> statement-breakpoint
CREATE INDEX "assinaturas_usuario" ON "assinaturas" USING btree ("usuario_id");--> statement-breakpoint
CREATE INDEX "assinaturas_painel" ON "assinaturas" USING btree ("painel_id");--> statement-breakpoint
CREATE UNIQUE INDEX "envios_assinatura_ocorrencia" ON "envios_assinatura" USING btree ("assinatura_id","ocorrencia");--> statement-breakpoint
CREATE INDEX "envios_assinatura_fila" ON "envios_assinatura" USING btree ("estado","disponivel_em");