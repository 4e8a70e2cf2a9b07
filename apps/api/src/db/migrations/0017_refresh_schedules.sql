CREATE TABLE "datasets_agendamento" (
	"dataset_id" text PRIMARY KEY NOT NULL,
	"dias" jsonb NOT NULL,
	"horarios" jsonb NOT NULL,
	"fuso" text,
	"habilitado" boolean NOT NULL,
	"lido_em" timestamp with time zone DEFAULT now() NOT NULL
);
