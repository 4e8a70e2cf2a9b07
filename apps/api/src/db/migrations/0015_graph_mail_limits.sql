CREATE TABLE "caixas_envio" (
	"caixa" text PRIMARY KEY NOT NULL,
	"pausada_ate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "uso_caixa_envio" (
	"id" serial PRIMARY KEY NOT NULL,
	"caixa" text NOT NULL,
	"em" timestamp with time zone NOT NULL,
	"bytes" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vagas_envio" (
	"caixa" text NOT NULL,
	"vaga" integer NOT NULL,
	"ocupada_por" text,
	"ocupada_ate" timestamp with time zone,
	CONSTRAINT "vagas_envio_caixa_vaga_pk" PRIMARY KEY("caixa","vaga")
);
--> statement-breakpoint
CREATE INDEX "uso_caixa_envio_caixa_em" ON "uso_caixa_envio" USING btree ("caixa","em");