--
-- PostgreSQL database dump
--


-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)
-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: turnstile_refuse_change(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.turnstile_refuse_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    RAISE EXCEPTION 'turnstile: % on % is not allowed, events are immutable', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: app_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.app_keys (
    key_hash text NOT NULL,
    name text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: commands; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.commands (
    match_id text NOT NULL,
    command_id text NOT NULL,
    first_version integer NOT NULL,
    last_version integer NOT NULL
);


--
-- Name: events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.events (
    "position" bigint NOT NULL,
    match_id text NOT NULL,
    version integer NOT NULL,
    type text NOT NULL,
    payload jsonb NOT NULL,
    seat integer,
    command jsonb,
    command_id text,
    recorded_at timestamp with time zone NOT NULL,
    prev_hash text NOT NULL,
    hash text NOT NULL,
    CONSTRAINT events_version_check CHECK ((version >= 1))
);


--
-- Name: events_position_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.events ALTER COLUMN "position" ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.events_position_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: matches; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.matches (
    id text NOT NULL,
    game text NOT NULL,
    rules_version text NOT NULL,
    seats jsonb NOT NULL,
    options jsonb NOT NULL,
    seed text NOT NULL,
    seed_commitment text NOT NULL,
    status text NOT NULL,
    version integer NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    head_hash text NOT NULL,
    CONSTRAINT matches_status_check CHECK ((status = ANY (ARRAY['active'::text, 'finished'::text]))),
    CONSTRAINT matches_version_check CHECK ((version >= 0))
);


--
-- Name: projection_checkpoints; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.projection_checkpoints (
    projection text NOT NULL,
    version integer NOT NULL,
    "position" bigint DEFAULT 0 NOT NULL,
    error text,
    error_position bigint,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: projection_docs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.projection_docs (
    projection text NOT NULL,
    kind text NOT NULL,
    key text NOT NULL,
    doc jsonb NOT NULL,
    grp text DEFAULT ''::text NOT NULL,
    rank double precision DEFAULT 0 NOT NULL
);


--
-- Name: schema_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_migrations (
    number integer NOT NULL,
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Data for Name: app_keys; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.app_keys VALUES ('bc5c4a8f878b9673a6d772c03ae656e9f1ca6f840d36678afd04ebeaa924a76c', 'drill', '2026-11-26 19:02:56.639965+00');


--
-- Data for Name: commands; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.commands VALUES ('e61adfd1-21e1-4254-b818-15964f2ed352', 'auto-7e150204-24ac-47a2-b452-6284da3a1d99', 7, 10);
INSERT INTO public.commands VALUES ('e61adfd1-21e1-4254-b818-15964f2ed352', 'auto-63a1a1c4-aae2-4a4c-be3d-c4611635c1b3', 11, 16);
INSERT INTO public.commands VALUES ('e61adfd1-21e1-4254-b818-15964f2ed352', 'auto-da152d7b-6ee9-41f3-a002-4f8eab05ce23', 17, 18);
INSERT INTO public.commands VALUES ('e61adfd1-21e1-4254-b818-15964f2ed352', 'auto-755540cc-0c3f-4bce-84ee-b84574310940', 19, 24);
INSERT INTO public.commands VALUES ('e61adfd1-21e1-4254-b818-15964f2ed352', 'auto-2d53ed1f-c112-4fcc-8d31-5577107a588e', 25, 28);
INSERT INTO public.commands VALUES ('e61adfd1-21e1-4254-b818-15964f2ed352', 'auto-4a29b10e-0c59-4ac6-9bb7-4b251010fbf2', 29, 31);
INSERT INTO public.commands VALUES ('9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 'auto-0c92de95-7283-4a80-991e-fa6fc43ee451', 4, 4);
INSERT INTO public.commands VALUES ('9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 'auto-5dec4313-3c8b-4637-b534-4de1cd594492', 5, 7);
INSERT INTO public.commands VALUES ('9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 'auto-a735b9b0-6b8d-4922-9a1b-966facab136e', 8, 8);
INSERT INTO public.commands VALUES ('9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 'auto-c7d26da1-0ba0-4acd-bce1-690060ccae26', 9, 11);
INSERT INTO public.commands VALUES ('9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 'auto-63d0d6a3-42bc-4a42-95e8-ca11f6c9a952', 12, 12);
INSERT INTO public.commands VALUES ('9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 'auto-8d290c1c-99bb-4e2d-aa2d-4ff5e253ece2', 13, 15);
INSERT INTO public.commands VALUES ('3b1361e3-ce83-4085-b6c4-80c190fb7544', 'auto-25a3173c-2f02-480a-80c9-7b25bc564d40', 4, 4);
INSERT INTO public.commands VALUES ('3b1361e3-ce83-4085-b6c4-80c190fb7544', 'auto-0673042f-4246-4d80-b011-10f612a22a1e', 5, 7);
INSERT INTO public.commands VALUES ('3b1361e3-ce83-4085-b6c4-80c190fb7544', 'auto-fe0eb196-9ded-403f-b995-37ba548a17da', 8, 8);
INSERT INTO public.commands VALUES ('3b1361e3-ce83-4085-b6c4-80c190fb7544', 'auto-e6e08918-7088-41c8-a0c7-dd9da986fbe6', 9, 10);
INSERT INTO public.commands VALUES ('3b1361e3-ce83-4085-b6c4-80c190fb7544', 'auto-536d55e7-d496-4fd9-bd60-2ea2cdf2dcad', 11, 11);
INSERT INTO public.commands VALUES ('3b1361e3-ce83-4085-b6c4-80c190fb7544', 'auto-b8dbbf44-e68e-4bcf-bda8-7ef0555ba191', 12, 17);
INSERT INTO public.commands VALUES ('7432a393-68e0-469e-b048-7bcc73328735', 'auto-d5c18ab1-2514-4d70-91cd-1afe668370c8', 3, 3);
INSERT INTO public.commands VALUES ('7432a393-68e0-469e-b048-7bcc73328735', 'auto-e5d2516f-1197-4d14-860a-37d83c141e39', 4, 4);
INSERT INTO public.commands VALUES ('7432a393-68e0-469e-b048-7bcc73328735', 'auto-2368ab48-16db-4d3a-a4f8-0bc9f56a90bd', 5, 5);
INSERT INTO public.commands VALUES ('7432a393-68e0-469e-b048-7bcc73328735', 'auto-31a2a399-6b9b-4d45-a8f4-2c8b7a209c9a', 6, 6);
INSERT INTO public.commands VALUES ('7432a393-68e0-469e-b048-7bcc73328735', 'auto-ad71723f-6699-414e-94f7-6f3f96103fae', 7, 7);
INSERT INTO public.commands VALUES ('7432a393-68e0-469e-b048-7bcc73328735', 'auto-25e597cb-85e2-440a-9850-6c3e4945bffa', 8, 8);
INSERT INTO public.commands VALUES ('344eb913-e8d7-4517-9904-42c3021753e5', 'auto-0e30271e-10c3-467a-8279-83017f788bca', 5, 5);
INSERT INTO public.commands VALUES ('344eb913-e8d7-4517-9904-42c3021753e5', 'auto-81ea2fd5-b63d-4f3b-9582-c755651a6c32', 6, 6);
INSERT INTO public.commands VALUES ('344eb913-e8d7-4517-9904-42c3021753e5', 'auto-8418531f-dfeb-4a48-ab32-055e0ef8e461', 7, 8);
INSERT INTO public.commands VALUES ('344eb913-e8d7-4517-9904-42c3021753e5', 'auto-7720c2f1-e701-48b0-a6e7-c8395c70d283', 9, 9);
INSERT INTO public.commands VALUES ('344eb913-e8d7-4517-9904-42c3021753e5', 'auto-3c22dbb7-c78b-49d5-9993-580580b7bf40', 10, 11);
INSERT INTO public.commands VALUES ('344eb913-e8d7-4517-9904-42c3021753e5', 'auto-76e06766-5c34-41dc-80d4-bb36b885513f', 12, 12);


--
-- Data for Name: events; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (1, 'e61adfd1-21e1-4254-b818-15964f2ed352', 1, 'match.started', '{"game": "expect-delays", "type": "match.started", "options": {"max_turns": 300}, "players": ["ada", "grace"], "rules_version": "1", "seed_commitment": "f0ba12e7030581f2679139188f07ac33ad9cc93df442a7765ca026ac8cab8ccb"}', NULL, NULL, NULL, '2026-11-26 19:03:08.048561+00', '0000000000000000000000000000000000000000000000000000000000000000', 'a0bac01e6506ce33732ad403b6bb407718c2a20c32cc9653ea4c795bf4a6a3a2');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (2, 'e61adfd1-21e1-4254-b818-15964f2ed352', 2, 'expect-delays.game-set-up', '{"type": "expect-delays.game-set-up", "seats": 2, "max_turns": 300}', NULL, NULL, NULL, '2026-11-26 19:03:08.048561+00', 'a0bac01e6506ce33732ad403b6bb407718c2a20c32cc9653ea4c795bf4a6a3a2', '556205064bf4bb9056d50d5d72c79c243b738494f9b18c9c3b81c48305c9685d');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (3, 'e61adfd1-21e1-4254-b818-15964f2ed352', 3, 'expect-delays.train-deck-shuffled', '{"size": 16, "type": "expect-delays.train-deck-shuffled", "order": ["T01", "T14", "T16", "T07", "T11", "T09", "T02", "T08", "T04", "T10", "T03", "T06", "T12", "T15", "T05", "T13"]}', NULL, NULL, NULL, '2026-11-26 19:03:08.048561+00', '556205064bf4bb9056d50d5d72c79c243b738494f9b18c9c3b81c48305c9685d', 'c537a49bc0faba16b1dd090e41461c6ea62e520b1173d5c2e7370c1ef51d843a');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (4, 'e61adfd1-21e1-4254-b818-15964f2ed352', 4, 'expect-delays.advisory-deck-shuffled', '{"size": 18, "type": "expect-delays.advisory-deck-shuffled", "order": ["SA16", "SA02", "SA03", "SA01", "SA17", "SA14", "SA06", "SA07", "SA18", "SA10", "SA05", "SA12", "SA15", "SA08", "SA09", "SA04", "SA11", "SA13"]}', NULL, NULL, NULL, '2026-11-26 19:03:08.048561+00', 'c537a49bc0faba16b1dd090e41461c6ea62e520b1173d5c2e7370c1ef51d843a', '02a3080d80b6c03bb6bf586c7cafda88cf2cd871b4e1e08ca8f2535767640441');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (5, 'e61adfd1-21e1-4254-b818-15964f2ed352', 5, 'expect-delays.cards-drawn', '{"seat": 0, "type": "expect-delays.cards-drawn", "cards": ["T01", "T14", "T16"], "count": 3}', NULL, NULL, NULL, '2026-11-26 19:03:08.048561+00', '02a3080d80b6c03bb6bf586c7cafda88cf2cd871b4e1e08ca8f2535767640441', '13a2780c25039fa8dd870c01c25044a1cd019bb155f546265c46cf146096b505');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (6, 'e61adfd1-21e1-4254-b818-15964f2ed352', 6, 'expect-delays.cards-drawn', '{"seat": 1, "type": "expect-delays.cards-drawn", "cards": ["T07", "T11", "T09"], "count": 3}', NULL, NULL, NULL, '2026-11-26 19:03:08.048561+00', '13a2780c25039fa8dd870c01c25044a1cd019bb155f546265c46cf146096b505', '004e81f725062c6194576e0c3e4cfd91a8a8291c8962bb8f150f02d50b57a65a');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (7, 'e61adfd1-21e1-4254-b818-15964f2ed352', 7, 'expect-delays.action-taken', '{"seat": 0, "type": "expect-delays.action-taken", "action": "run-the-line"}', 0, '{"line": "U2", "type": "expect-delays.run-the-line", "cards": ["T16"]}', 'auto-7e150204-24ac-47a2-b452-6284da3a1d99', '2026-11-26 19:03:08.208478+00', '004e81f725062c6194576e0c3e4cfd91a8a8291c8962bb8f150f02d50b57a65a', 'ed5199cd51113e0cd7342a3229e3f620ca915bca74ca20b1c15ea5751ed4c82d');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (8, 'e61adfd1-21e1-4254-b818-15964f2ed352', 8, 'expect-delays.cards-discarded', '{"seat": 0, "type": "expect-delays.cards-discarded", "cards": ["T16"]}', 0, '{"line": "U2", "type": "expect-delays.run-the-line", "cards": ["T16"]}', 'auto-7e150204-24ac-47a2-b452-6284da3a1d99', '2026-11-26 19:03:08.208478+00', 'ed5199cd51113e0cd7342a3229e3f620ca915bca74ca20b1c15ea5751ed4c82d', '26c40302b21209449556dbc6dde05e4af48b8a19c3e597f1b61ac7dffd8abf2e');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (9, 'e61adfd1-21e1-4254-b818-15964f2ed352', 9, 'expect-delays.riders-moved', '{"line": "U2", "type": "expect-delays.riders-moved", "moves": [], "stops": 1}', 0, '{"line": "U2", "type": "expect-delays.run-the-line", "cards": ["T16"]}', 'auto-7e150204-24ac-47a2-b452-6284da3a1d99', '2026-11-26 19:03:08.208478+00', '26c40302b21209449556dbc6dde05e4af48b8a19c3e597f1b61ac7dffd8abf2e', '979e722439670370425a1632711465ae9c6fccfed147b757df5874b3b28461cb');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (10, 'e61adfd1-21e1-4254-b818-15964f2ed352', 10, 'expect-delays.riders-moved', '{"line": "D2", "type": "expect-delays.riders-moved", "moves": [], "stops": 1}', 0, '{"line": "U2", "type": "expect-delays.run-the-line", "cards": ["T16"]}', 'auto-7e150204-24ac-47a2-b452-6284da3a1d99', '2026-11-26 19:03:08.208478+00', '979e722439670370425a1632711465ae9c6fccfed147b757df5874b3b28461cb', '3f0edbd6003a34824718ac710c2dbf25eb4b2e9c90e77026ed59f8197cc42d6c');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (11, 'e61adfd1-21e1-4254-b818-15964f2ed352', 11, 'expect-delays.action-taken', '{"seat": 0, "type": "expect-delays.action-taken", "action": "take-out-of-service"}', 0, '{"card": "T14", "type": "expect-delays.take-out-of-service"}', 'auto-63a1a1c4-aae2-4a4c-be3d-c4611635c1b3', '2026-11-26 19:03:08.364126+00', '3f0edbd6003a34824718ac710c2dbf25eb4b2e9c90e77026ed59f8197cc42d6c', 'a1670dc37ec60dea438c6bca2a46bd28b73f2ae652003975867565532a62f664');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (12, 'e61adfd1-21e1-4254-b818-15964f2ed352', 12, 'expect-delays.card-taken-out-of-service', '{"card": "T14", "seat": 0, "type": "expect-delays.card-taken-out-of-service", "fare_swipes": 1}', 0, '{"card": "T14", "type": "expect-delays.take-out-of-service"}', 'auto-63a1a1c4-aae2-4a4c-be3d-c4611635c1b3', '2026-11-26 19:03:08.364126+00', 'a1670dc37ec60dea438c6bca2a46bd28b73f2ae652003975867565532a62f664', '34ce7ee94f16004e8d9df78bf74ffba489b2f55a36c443b7b47ccec03d8e4171');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (13, 'e61adfd1-21e1-4254-b818-15964f2ed352', 13, 'expect-delays.action-phase-ended', '{"seat": 0, "type": "expect-delays.action-phase-ended", "early": false}', 0, '{"card": "T14", "type": "expect-delays.take-out-of-service"}', 'auto-63a1a1c4-aae2-4a4c-be3d-c4611635c1b3', '2026-11-26 19:03:08.364126+00', '34ce7ee94f16004e8d9df78bf74ffba489b2f55a36c443b7b47ccec03d8e4171', '1e171d4d2d9c7be3548868ba065c01e6074f0b7a6a98a0689d5fbdfd1dff5f12');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (14, 'e61adfd1-21e1-4254-b818-15964f2ed352', 14, 'expect-delays.cards-discarded', '{"seat": 0, "type": "expect-delays.cards-discarded", "cards": ["T01"]}', 0, '{"card": "T14", "type": "expect-delays.take-out-of-service"}', 'auto-63a1a1c4-aae2-4a4c-be3d-c4611635c1b3', '2026-11-26 19:03:08.364126+00', '1e171d4d2d9c7be3548868ba065c01e6074f0b7a6a98a0689d5fbdfd1dff5f12', 'ced4a9f34e7d7c846e1f4e75443932984070b0ac60cf16b536c4d2f1e3f59f30');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (15, 'e61adfd1-21e1-4254-b818-15964f2ed352', 15, 'expect-delays.cards-drawn', '{"seat": 0, "type": "expect-delays.cards-drawn", "cards": ["T02", "T08", "T04"], "count": 3}', 0, '{"card": "T14", "type": "expect-delays.take-out-of-service"}', 'auto-63a1a1c4-aae2-4a4c-be3d-c4611635c1b3', '2026-11-26 19:03:08.364126+00', 'ced4a9f34e7d7c846e1f4e75443932984070b0ac60cf16b536c4d2f1e3f59f30', 'ccfd7fa41891a41f5acf1bf2b25989acdf9db5f649b5c723c5ac0f2420497215');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (16, 'e61adfd1-21e1-4254-b818-15964f2ed352', 16, 'expect-delays.turn-passed', '{"seat": 1, "turn": 2, "type": "expect-delays.turn-passed"}', 0, '{"card": "T14", "type": "expect-delays.take-out-of-service"}', 'auto-63a1a1c4-aae2-4a4c-be3d-c4611635c1b3', '2026-11-26 19:03:08.364126+00', 'ccfd7fa41891a41f5acf1bf2b25989acdf9db5f649b5c723c5ac0f2420497215', '195149a64a8242e70ebb408fdfe669112e95dc7ce10c0e17df28711bb353cb5f');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (17, 'e61adfd1-21e1-4254-b818-15964f2ed352', 17, 'expect-delays.action-taken', '{"seat": 1, "type": "expect-delays.action-taken", "action": "repair"}', 1, '{"card": "T14", "type": "expect-delays.repair"}', 'auto-da152d7b-6ee9-41f3-a002-4f8eab05ce23', '2026-11-26 19:03:08.481269+00', '195149a64a8242e70ebb408fdfe669112e95dc7ce10c0e17df28711bb353cb5f', '18db360e676c1e6debddbb3803d7e1ec419431f82d072267e824e8874f4cfce0');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (18, 'e61adfd1-21e1-4254-b818-15964f2ed352', 18, 'expect-delays.card-repaired', '{"card": "T14", "type": "expect-delays.card-repaired"}', 1, '{"card": "T14", "type": "expect-delays.repair"}', 'auto-da152d7b-6ee9-41f3-a002-4f8eab05ce23', '2026-11-26 19:03:08.481269+00', '18db360e676c1e6debddbb3803d7e1ec419431f82d072267e824e8874f4cfce0', '9e3f01cd9a80273338206bfa78c332132e3899bae24e4323f831cdab8cc06451');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (19, 'e61adfd1-21e1-4254-b818-15964f2ed352', 19, 'expect-delays.action-taken', '{"seat": 1, "type": "expect-delays.action-taken", "action": "board"}', 1, '{"line": "D1", "type": "expect-delays.board"}', 'auto-755540cc-0c3f-4bce-84ee-b84574310940', '2026-11-26 19:03:08.633924+00', '9e3f01cd9a80273338206bfa78c332132e3899bae24e4323f831cdab8cc06451', '972c6ab65831a373d4f720d7967b812d59c8b63c7e4d37f0a04c5d546618e4e4');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (20, 'e61adfd1-21e1-4254-b818-15964f2ed352', 20, 'expect-delays.commuter-boarded', '{"line": "D1", "seat": 1, "type": "expect-delays.commuter-boarded", "fare_paid": 2}', 1, '{"line": "D1", "type": "expect-delays.board"}', 'auto-755540cc-0c3f-4bce-84ee-b84574310940', '2026-11-26 19:03:08.633924+00', '972c6ab65831a373d4f720d7967b812d59c8b63c7e4d37f0a04c5d546618e4e4', '6f67d05fae0d44ce80b58cbc7b016021b7c85e04079587790d79928b102ad45c');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (21, 'e61adfd1-21e1-4254-b818-15964f2ed352', 21, 'expect-delays.action-phase-ended', '{"seat": 1, "type": "expect-delays.action-phase-ended", "early": false}', 1, '{"line": "D1", "type": "expect-delays.board"}', 'auto-755540cc-0c3f-4bce-84ee-b84574310940', '2026-11-26 19:03:08.633924+00', '6f67d05fae0d44ce80b58cbc7b016021b7c85e04079587790d79928b102ad45c', '9051495604d0e4b9b258eeefb8aea246749ded09796eb362f91588482a95bf12');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (22, 'e61adfd1-21e1-4254-b818-15964f2ed352', 22, 'expect-delays.cards-discarded', '{"seat": 1, "type": "expect-delays.cards-discarded", "cards": ["T07", "T11", "T09"]}', 1, '{"line": "D1", "type": "expect-delays.board"}', 'auto-755540cc-0c3f-4bce-84ee-b84574310940', '2026-11-26 19:03:08.633924+00', '9051495604d0e4b9b258eeefb8aea246749ded09796eb362f91588482a95bf12', '356f34c6ea0367eb67197454bd447421ddc35cea86a20b4bd3f116fbe1162fd3');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (23, 'e61adfd1-21e1-4254-b818-15964f2ed352', 23, 'expect-delays.cards-drawn', '{"seat": 1, "type": "expect-delays.cards-drawn", "cards": ["T10", "T03", "T06"], "count": 3}', 1, '{"line": "D1", "type": "expect-delays.board"}', 'auto-755540cc-0c3f-4bce-84ee-b84574310940', '2026-11-26 19:03:08.633924+00', '356f34c6ea0367eb67197454bd447421ddc35cea86a20b4bd3f116fbe1162fd3', '26bd8f384de4421911f345ba6b8d9515eb70a9df15365a054240813c131da7ce');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (24, 'e61adfd1-21e1-4254-b818-15964f2ed352', 24, 'expect-delays.turn-passed', '{"seat": 0, "turn": 3, "type": "expect-delays.turn-passed"}', 1, '{"line": "D1", "type": "expect-delays.board"}', 'auto-755540cc-0c3f-4bce-84ee-b84574310940', '2026-11-26 19:03:08.633924+00', '26bd8f384de4421911f345ba6b8d9515eb70a9df15365a054240813c131da7ce', '40c213bce866aea101db23bbf1c35b51f6aff24f589adaf9283cf3fb1106ca8e');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (25, 'e61adfd1-21e1-4254-b818-15964f2ed352', 25, 'expect-delays.action-phase-ended', '{"seat": 0, "type": "expect-delays.action-phase-ended", "early": true}', 0, '{"type": "expect-delays.end-actions"}', 'auto-2d53ed1f-c112-4fcc-8d31-5577107a588e', '2026-11-26 19:03:08.740908+00', '40c213bce866aea101db23bbf1c35b51f6aff24f589adaf9283cf3fb1106ca8e', '832b251d6f3bbb963112ef8463f4131aa5ea6edfcee1c07d08f9fe6e849dd2b1');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (26, 'e61adfd1-21e1-4254-b818-15964f2ed352', 26, 'expect-delays.cards-discarded', '{"seat": 0, "type": "expect-delays.cards-discarded", "cards": ["T02", "T08", "T04"]}', 0, '{"type": "expect-delays.end-actions"}', 'auto-2d53ed1f-c112-4fcc-8d31-5577107a588e', '2026-11-26 19:03:08.740908+00', '832b251d6f3bbb963112ef8463f4131aa5ea6edfcee1c07d08f9fe6e849dd2b1', 'ab846ccc95203507f51a71ad3d2e6587284ae093590d1a11a05c5d237b06a04e');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (27, 'e61adfd1-21e1-4254-b818-15964f2ed352', 27, 'expect-delays.cards-drawn', '{"seat": 0, "type": "expect-delays.cards-drawn", "cards": ["T12", "T15", "T05"], "count": 3}', 0, '{"type": "expect-delays.end-actions"}', 'auto-2d53ed1f-c112-4fcc-8d31-5577107a588e', '2026-11-26 19:03:08.740908+00', 'ab846ccc95203507f51a71ad3d2e6587284ae093590d1a11a05c5d237b06a04e', '0c7a2f6de7865135b53521cdc1eeb2774aaa5b0d0c3d84c5e923c2d7b02537a3');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (28, 'e61adfd1-21e1-4254-b818-15964f2ed352', 28, 'expect-delays.turn-passed', '{"seat": 1, "turn": 4, "type": "expect-delays.turn-passed"}', 0, '{"type": "expect-delays.end-actions"}', 'auto-2d53ed1f-c112-4fcc-8d31-5577107a588e', '2026-11-26 19:03:08.740908+00', '0c7a2f6de7865135b53521cdc1eeb2774aaa5b0d0c3d84c5e923c2d7b02537a3', '36201530e9c223f6bc4e0cf69e1c23195617ab4be782ce9874660a5e39058ebe');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (47, '3b1361e3-ce83-4085-b6c4-80c190fb7544', 1, 'match.started', '{"game": "terminus", "type": "match.started", "options": {"board": "default", "automa": false, "first_game": false}, "players": ["ada", "grace"], "rules_version": "1", "seed_commitment": "3558f317e029ac5b075bbec5a193691a4f7439ef9a17a834c4b17fceb69553ac"}', NULL, NULL, NULL, '2026-11-26 19:03:09.42665+00', '0000000000000000000000000000000000000000000000000000000000000000', 'c10af0707212b3ec494f33891e4d39c436ce319a2d3c32434e9ab15b5a78332f');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (48, '3b1361e3-ce83-4085-b6c4-80c190fb7544', 2, 'terminus.set-up', '{"type": "terminus.set-up", "board": "default", "seats": 2, "tokens": ["DM-P5-3", "DM-P4-1", "DM-K-2", "DM-TH-2", "DM-P7-2", "DM-P5-1", "DM-CR-2", "DM-P4-2", "DM-TH-1", "DM-CR-1", "DM-K-1", "DM-P6-2"], "display": ["DT03", "DT14", "DT01", "DT21", "DT10", "DT09", "DT16", "DT22", "DT17", "DT18", "DT23", "DT24"], "projects": ["PJ11", "PJ10", "PJ14"], "first_game": false, "upgrade_copies": 1}', NULL, NULL, NULL, '2026-11-26 19:03:09.42665+00', 'c10af0707212b3ec494f33891e4d39c436ce319a2d3c32434e9ab15b5a78332f', 'b78028a621e602b2512092558fc3ddced6d1fb620d932a23a303acd29145d4d2');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (49, '3b1361e3-ce83-4085-b6c4-80c190fb7544', 3, 'terminus.agendas-dealt', '{"deck": ["AG02", "AG11", "AG18", "AG23", "AG16", "AG25", "AG26", "AG14", "AG03", "AG33", "AG20", "AG05", "AG28", "AG10", "AG01", "AG12", "AG29", "AG15", "AG35", "AG09", "AG30", "AG08", "AG13", "AG07", "AG19", "AG06", "AG04", "AG22", "AG34", "AG31", "AG17"], "type": "terminus.agendas-dealt", "hands": [["AG24", "AG32"], ["AG27", "AG21"]], "deck_size": 31}', NULL, NULL, NULL, '2026-11-26 19:03:09.42665+00', 'b78028a621e602b2512092558fc3ddced6d1fb620d932a23a303acd29145d4d2', '8d23a316a92962e6f896d137e801cc70960c64f88af49ca3a292a4bf2bafbcd5');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (50, '3b1361e3-ce83-4085-b6c4-80c190fb7544', 4, 'terminus.secret-agenda-kept', '{"seat": 0, "type": "terminus.secret-agenda-kept", "agenda": "AG24"}', 0, '{"type": "terminus.keep-agenda", "agenda": "AG24"}', 'auto-25a3173c-2f02-480a-80c9-7b25bc564d40', '2026-11-26 19:03:09.511129+00', '8d23a316a92962e6f896d137e801cc70960c64f88af49ca3a292a4bf2bafbcd5', '8967e2a8cc9c6dcf7c3a64e025afe9b98f709966f1e3605a138ca02a0541e789');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (54, '3b1361e3-ce83-4085-b6c4-80c190fb7544', 8, 'terminus.prime-hub-placed', '{"plot": "P00", "seat": 0, "type": "terminus.prime-hub-placed"}', 0, '{"plot": "P00", "type": "terminus.place-hub"}', 'auto-fe0eb196-9ded-403f-b995-37ba548a17da', '2026-11-26 19:03:09.660825+00', '07447ac3ac4abe9af320cbe756821dc0761b7d6793bde04e0ee3d4b3d76b36c9', '7a43dbf7b6d0472d3c9e112c56d2ef48d862098cabb30667b424375baa7769d3');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (55, '3b1361e3-ce83-4085-b6c4-80c190fb7544', 9, 'terminus.prime-hub-placed', '{"plot": "P03", "seat": 1, "type": "terminus.prime-hub-placed"}', 1, '{"plot": "P03", "type": "terminus.place-hub"}', 'auto-e6e08918-7088-41c8-a0c7-dd9da986fbe6', '2026-11-26 19:03:09.734064+00', '7a43dbf7b6d0472d3c9e112c56d2ef48d862098cabb30667b424375baa7769d3', '15aef63e752830899f31864b806a770076bd3d4f7ae6a3378e903c4da19aec73');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (29, 'e61adfd1-21e1-4254-b818-15964f2ed352', 29, 'expect-delays.action-taken', '{"seat": 1, "type": "expect-delays.action-taken", "action": "run-the-line"}', 1, '{"line": "D2", "type": "expect-delays.run-the-line", "cards": ["T10"]}', 'auto-4a29b10e-0c59-4ac6-9bb7-4b251010fbf2', '2026-11-26 19:03:08.845822+00', '36201530e9c223f6bc4e0cf69e1c23195617ab4be782ce9874660a5e39058ebe', '28f389d8073d0aa72446b3415b25c1d3bc10c7221fb15f44e6c613b2ae1bd641');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (30, 'e61adfd1-21e1-4254-b818-15964f2ed352', 30, 'expect-delays.cards-discarded', '{"seat": 1, "type": "expect-delays.cards-discarded", "cards": ["T10"]}', 1, '{"line": "D2", "type": "expect-delays.run-the-line", "cards": ["T10"]}', 'auto-4a29b10e-0c59-4ac6-9bb7-4b251010fbf2', '2026-11-26 19:03:08.845822+00', '28f389d8073d0aa72446b3415b25c1d3bc10c7221fb15f44e6c613b2ae1bd641', '8f0fde19b1b0ba13ff7b05b26bdf5ff3d1a9d927800ebb71cb917efe524c2a32');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (31, 'e61adfd1-21e1-4254-b818-15964f2ed352', 31, 'expect-delays.riders-moved', '{"line": "D2", "type": "expect-delays.riders-moved", "moves": [], "stops": 1}', 1, '{"line": "D2", "type": "expect-delays.run-the-line", "cards": ["T10"]}', 'auto-4a29b10e-0c59-4ac6-9bb7-4b251010fbf2', '2026-11-26 19:03:08.845822+00', '8f0fde19b1b0ba13ff7b05b26bdf5ff3d1a9d927800ebb71cb917efe524c2a32', '094862382b524afe0d3a2f666cdf93667e8d8270ec44483fe1b85c3ad9d8bfbf');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (32, '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 1, 'match.started', '{"game": "metro-x", "type": "match.started", "options": {"map": "metro-city"}, "players": ["ada", "grace"], "rules_version": "1", "seed_commitment": "022416c797a657de5d026c6952e7ebd80e3d62f974caaa182fcb01da7c4837d3"}', NULL, NULL, NULL, '2026-11-26 19:03:08.918384+00', '0000000000000000000000000000000000000000000000000000000000000000', 'ab29f06c6dc9f1b860c6a71d04ea6ab45de47b810ad4318437ab9ba58180204f');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (33, '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 2, 'metro-x.set-up', '{"map": "metro-city", "type": "metro-x.set-up", "seats": 2}', NULL, NULL, NULL, '2026-11-26 19:03:08.918384+00', 'ab29f06c6dc9f1b860c6a71d04ea6ab45de47b810ad4318437ab9ba58180204f', 'b9486596f61c47f232075d65145e180824cbcf4cffefb9ac34b2af7ce6f8ec44');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (34, '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 3, 'metro-x.card-flipped', '{"card": "N3-2", "turn": 1, "type": "metro-x.card-flipped"}', NULL, NULL, NULL, '2026-11-26 19:03:08.918384+00', 'b9486596f61c47f232075d65145e180824cbcf4cffefb9ac34b2af7ce6f8ec44', '14832d8b0494ebdff3783e64af81d6641a52e2218edece1691b3e32c86489847');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (35, '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 4, 'metro-x.marking-submitted', '{"seat": 1, "turn": 1, "type": "metro-x.marking-submitted", "choice": {"key": "mx-pending:1:1:route:D:0:0:", "route": "D", "action": "route", "station": "", "stations": 0, "write_number": false}}', 1, '{"type": "metro-x.mark-route", "route": "D", "stations": 0}', 'auto-0c92de95-7283-4a80-991e-fa6fc43ee451', '2026-11-26 19:03:08.999421+00', '14832d8b0494ebdff3783e64af81d6641a52e2218edece1691b3e32c86489847', '16811d305a982ac7cc39a2231423e2a2dc4690e3d31cd98fbb241be994c058e5');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (36, '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 5, 'metro-x.marking-submitted', '{"seat": 0, "turn": 1, "type": "metro-x.marking-submitted", "choice": {"key": "mx-pending:1:0:route:D:2:0:", "route": "D", "action": "route", "station": "", "stations": 2, "write_number": false}}', 0, '{"type": "metro-x.mark-route", "route": "D", "stations": 2}', 'auto-5dec4313-3c8b-4637-b534-4de1cd594492', '2026-11-26 19:03:09.058376+00', '16811d305a982ac7cc39a2231423e2a2dc4690e3d31cd98fbb241be994c058e5', '95a45a82101f53432ff2cf0854d487772b87f1a123c65276bb29b625c0364245');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (37, '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 6, 'metro-x.turn-resolved', '{"card": "N3-2", "turn": 1, "type": "metro-x.turn-resolved", "markings": [{"seat": 0, "route": "D", "action": "route", "window": "3", "crossed": ["1.4", "1.5"], "transfer_value": 0, "transfer_station": ""}, {"seat": 1, "route": "D", "action": "route", "window": "3", "crossed": [], "transfer_value": 0, "transfer_station": ""}], "completions": []}', 0, '{"type": "metro-x.mark-route", "route": "D", "stations": 2}', 'auto-5dec4313-3c8b-4637-b534-4de1cd594492', '2026-11-26 19:03:09.058376+00', '95a45a82101f53432ff2cf0854d487772b87f1a123c65276bb29b625c0364245', 'fe0622c1bf192b13eadc540749d389be955dd0912921142d181d1105a2dbb708');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (38, '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 7, 'metro-x.card-flipped', '{"card": "N3-1", "turn": 2, "type": "metro-x.card-flipped"}', 0, '{"type": "metro-x.mark-route", "route": "D", "stations": 2}', 'auto-5dec4313-3c8b-4637-b534-4de1cd594492', '2026-11-26 19:03:09.058376+00', 'fe0622c1bf192b13eadc540749d389be955dd0912921142d181d1105a2dbb708', '6250bf0cec46b8dafc2408cbac72e9cc16646bd269971d3a4c19e07c2b061a3c');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (39, '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 8, 'metro-x.marking-submitted', '{"seat": 0, "turn": 2, "type": "metro-x.marking-submitted", "choice": {"key": "mx-pending:2:0:route:C:0:0:", "route": "C", "action": "route", "station": "", "stations": 0, "write_number": false}}', 0, '{"type": "metro-x.mark-route", "route": "C", "stations": 0}', 'auto-a735b9b0-6b8d-4922-9a1b-966facab136e', '2026-11-26 19:03:09.094908+00', '6250bf0cec46b8dafc2408cbac72e9cc16646bd269971d3a4c19e07c2b061a3c', '534f87f39081e3261518982a3b61b091c0d867e9881ecf410c226a2dbfc8fa92');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (40, '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 9, 'metro-x.marking-submitted', '{"seat": 1, "turn": 2, "type": "metro-x.marking-submitted", "choice": {"key": "mx-pending:2:1:route:H:2:0:", "route": "H", "action": "route", "station": "", "stations": 2, "write_number": false}}', 1, '{"type": "metro-x.mark-route", "route": "H", "stations": 2}', 'auto-c7d26da1-0ba0-4acd-bce1-690060ccae26', '2026-11-26 19:03:09.167577+00', '534f87f39081e3261518982a3b61b091c0d867e9881ecf410c226a2dbfc8fa92', '77f1d04af39a6498d963700e2b421fa81316e09bf33477c334b85cf38d2d4a12');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (41, '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 10, 'metro-x.turn-resolved', '{"card": "N3-1", "turn": 2, "type": "metro-x.turn-resolved", "markings": [{"seat": 0, "route": "C", "action": "route", "window": "3", "crossed": [], "transfer_value": 0, "transfer_station": ""}, {"seat": 1, "route": "H", "action": "route", "window": "3", "crossed": ["2.8", "3.8"], "transfer_value": 0, "transfer_station": ""}], "completions": []}', 1, '{"type": "metro-x.mark-route", "route": "H", "stations": 2}', 'auto-c7d26da1-0ba0-4acd-bce1-690060ccae26', '2026-11-26 19:03:09.167577+00', '77f1d04af39a6498d963700e2b421fa81316e09bf33477c334b85cf38d2d4a12', '2a4dabc40b13e8e2b79080961fd7fb52bfaa7ef1428f07981f17876f57d7815a');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (42, '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 11, 'metro-x.card-flipped', '{"card": "FS-1", "turn": 3, "type": "metro-x.card-flipped"}', 1, '{"type": "metro-x.mark-route", "route": "H", "stations": 2}', 'auto-c7d26da1-0ba0-4acd-bce1-690060ccae26', '2026-11-26 19:03:09.167577+00', '2a4dabc40b13e8e2b79080961fd7fb52bfaa7ef1428f07981f17876f57d7815a', 'bc2c098ae8aab1cc9cbc0044eb4fec5e25ab955153c1e25d5a228d1fe93b955e');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (43, '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 12, 'metro-x.marking-submitted', '{"seat": 1, "turn": 3, "type": "metro-x.marking-submitted", "choice": {"key": "mx-pending:3:1:free::0:0:5.7", "route": "", "action": "free", "station": "5.7", "stations": 0, "write_number": false}}', 1, '{"type": "metro-x.mark-free-space", "station": "5.7"}', 'auto-63d0d6a3-42bc-4a42-95e8-ca11f6c9a952', '2026-11-26 19:03:09.245153+00', 'bc2c098ae8aab1cc9cbc0044eb4fec5e25ab955153c1e25d5a228d1fe93b955e', '939a864765ee28b9a51eb85abef6dd45ba41d41cd828d2d5db446573e99635b4');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (44, '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 13, 'metro-x.marking-submitted', '{"seat": 0, "turn": 3, "type": "metro-x.marking-submitted", "choice": {"key": "mx-pending:3:0:pass::0:0:", "route": "", "action": "pass", "station": "", "stations": 0, "write_number": false}}', 0, '{"type": "metro-x.pass"}', 'auto-8d290c1c-99bb-4e2d-aa2d-4ff5e253ece2', '2026-11-26 19:03:09.318971+00', '939a864765ee28b9a51eb85abef6dd45ba41d41cd828d2d5db446573e99635b4', '53012c5afd957128aa96b61696d11088c8f3c33efe8885ba48980f5049e38cfc');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (45, '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 14, 'metro-x.turn-resolved', '{"card": "FS-1", "turn": 3, "type": "metro-x.turn-resolved", "markings": [{"seat": 0, "route": "", "action": "pass", "window": "", "crossed": [], "transfer_value": 0, "transfer_station": ""}, {"seat": 1, "route": "", "action": "free", "window": "", "crossed": ["5.7"], "transfer_value": 0, "transfer_station": ""}], "completions": []}', 0, '{"type": "metro-x.pass"}', 'auto-8d290c1c-99bb-4e2d-aa2d-4ff5e253ece2', '2026-11-26 19:03:09.318971+00', '53012c5afd957128aa96b61696d11088c8f3c33efe8885ba48980f5049e38cfc', '0cbd5e63703cd52467e1e1befba9a626e2479895a81662aaecb9a2509619782e');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (46, '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 15, 'metro-x.card-flipped', '{"card": "TX-1", "turn": 4, "type": "metro-x.card-flipped"}', 0, '{"type": "metro-x.pass"}', 'auto-8d290c1c-99bb-4e2d-aa2d-4ff5e253ece2', '2026-11-26 19:03:09.318971+00', '0cbd5e63703cd52467e1e1befba9a626e2479895a81662aaecb9a2509619782e', '9af62c8bd6a9ada40aac7470b557c97e828f87fc0dacd10b8c3e05ddde871a8d');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (51, '3b1361e3-ce83-4085-b6c4-80c190fb7544', 5, 'terminus.secret-agenda-kept', '{"seat": 1, "type": "terminus.secret-agenda-kept", "agenda": "AG27"}', 1, '{"type": "terminus.keep-agenda", "agenda": "AG27"}', 'auto-0673042f-4246-4d80-b011-10f612a22a1e', '2026-11-26 19:03:09.583976+00', '8967e2a8cc9c6dcf7c3a64e025afe9b98f709966f1e3605a138ca02a0541e789', 'b1268eafab1f372e339cae696c3e2b5e4eb9dd03504a5118ba26348e8999f8aa');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (52, '3b1361e3-ce83-4085-b6c4-80c190fb7544', 6, 'terminus.turn-order-revealed', '{"type": "terminus.turn-order-revealed", "cards": ["AG32", "AG21"], "order": [1, 0]}', 1, '{"type": "terminus.keep-agenda", "agenda": "AG27"}', 'auto-0673042f-4246-4d80-b011-10f612a22a1e', '2026-11-26 19:03:09.583976+00', 'b1268eafab1f372e339cae696c3e2b5e4eb9dd03504a5118ba26348e8999f8aa', '43abb6cfa644218bf14850a0512f65f9c1dc45935cfb51034c451f042566bce0');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (53, '3b1361e3-ce83-4085-b6c4-80c190fb7544', 7, 'terminus.agenda-deck-shuffled', '{"deck": ["AG18", "AG33", "AG20", "AG14", "AG09", "AG29", "AG30", "AG21", "AG26", "AG08", "AG35", "AG06", "AG19", "AG03", "AG02", "AG11", "AG22", "AG31", "AG10", "AG34", "AG07", "AG04", "AG28", "AG12", "AG15", "AG13", "AG32", "AG25", "AG16", "AG23", "AG01", "AG17", "AG05"], "type": "terminus.agenda-deck-shuffled", "deck_size": 33}', 1, '{"type": "terminus.keep-agenda", "agenda": "AG27"}', 'auto-0673042f-4246-4d80-b011-10f612a22a1e', '2026-11-26 19:03:09.583976+00', '43abb6cfa644218bf14850a0512f65f9c1dc45935cfb51034c451f042566bce0', '07447ac3ac4abe9af320cbe756821dc0761b7d6793bde04e0ee3d4b3d76b36c9');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (57, '3b1361e3-ce83-4085-b6c4-80c190fb7544', 11, 'terminus.bonus-chosen', '{"seat": 1, "type": "terminus.bonus-chosen", "option": 3}', 1, '{"type": "terminus.choose-bonus", "option": 3}', 'auto-536d55e7-d496-4fd9-bd60-2ea2cdf2dcad', '2026-11-26 19:03:09.813234+00', 'f3cb6ef863de4339f3520f6de0007764756acd3b6b90cbbe43c2aa73acdc93e9', 'ded95dd75c7a3e224d7dca6513a46f442a0cff4d9bb392eec7eb8d06adb72da8');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (64, '7432a393-68e0-469e-b048-7bcc73328735', 1, 'match.started', '{"game": "mass-transit", "type": "match.started", "options": {"first_seat": 0}, "players": ["ada", "grace"], "rules_version": "1", "seed_commitment": "cb1a5a33573005c3ea87bd891842148a6ae95f86202497b594a7ad1f38450611"}', NULL, NULL, NULL, '2026-11-26 19:03:09.965247+00', '0000000000000000000000000000000000000000000000000000000000000000', '9990accfd5a4baeb27a1ce698c65c1cee6c8dd68b827573389fbf33f75832d1b');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (65, '7432a393-68e0-469e-b048-7bcc73328735', 2, 'mass-transit.dealt', '{"deck": ["MT40", "MT13", "MT18", "MT03", "MT25", "MT49", "MT52", "MT28", "MT31", "MT34", "MT07", "MT45", "MT09", "MT30", "MT27", "MT21", "MT39", "MT04", "MT01", "MT41", "MT22", "MT17", "MT02", "MT29", "MT16", "MT11", "MT12", "MT19", "MT43", "MT15", "MT48", "MT32", "MT46", "MT33", "MT26", "MT44", "MT20", "MT42", "MT35", "MT14", "MT05", "MT06", "MT38", "MT51"], "type": "mass-transit.dealt", "hands": [["MT23", "MT10", "MT08", "MT36"], ["MT50", "MT47", "MT24", "MT37"]], "deck_size": 44, "mulligans": [], "first_seat": 0, "hand_sizes": [4, 4]}', NULL, NULL, NULL, '2026-11-26 19:03:09.965247+00', '9990accfd5a4baeb27a1ce698c65c1cee6c8dd68b827573389fbf33f75832d1b', '6e01b721ea609830267f7bf94754d6ccee506d2bc997aa285bc778d390c63116');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (67, '7432a393-68e0-469e-b048-7bcc73328735', 4, 'mass-transit.commuter-moved', '{"by": "walk", "card": "MT08", "held": "", "home": false, "seat": 0, "type": "mass-transit.commuter-moved", "to_pos": 0, "commuter": 2, "from_pos": -1}', 0, '{"card": "MT08", "type": "mass-transit.discard-card", "commuter": 2}', 'auto-e5d2516f-1197-4d14-860a-37d83c141e39', '2026-11-26 19:03:10.104668+00', '97778f75be11f2c4c871a09761a0c6772d69feafdb6207b16704b4337fc31ed1', '84d909bd3459abab21030b46b5d58ae9ec152a10d0a85e6cd16b2edf70e25125');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (69, '7432a393-68e0-469e-b048-7bcc73328735', 6, 'mass-transit.card-placed', '{"card": "MT23", "seat": 0, "type": "mass-transit.card-placed", "route": 0, "position": 0}', 0, '{"card": "MT23", "type": "mass-transit.place-card", "route": 0}', 'auto-31a2a399-6b9b-4d45-a8f4-2c8b7a209c9a', '2026-11-26 19:03:10.194449+00', '996b20f50913d28fb07244e0cc7f95c057d77b7ab398032a46ec80158565d411', 'ab8be722650791cc13bd88207db88405e2d4524bb568aa510c417366cb4763c5');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (70, '7432a393-68e0-469e-b048-7bcc73328735', 7, 'mass-transit.turn-ended', '{"seat": 0, "type": "mass-transit.turn-ended", "drawn": ["MT40", "MT13", "MT18", "MT03"], "next_seat": 1, "drawn_count": 4}', 0, '{"type": "mass-transit.end-turn"}', 'auto-ad71723f-6699-414e-94f7-6f3f96103fae', '2026-11-26 19:03:10.263972+00', 'ab8be722650791cc13bd88207db88405e2d4524bb568aa510c417366cb4763c5', 'a56abb90047e60631bf538494887f357113234f49b1e6f8cca3369d7505fc532');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (72, '344eb913-e8d7-4517-9904-42c3021753e5', 1, 'match.started', '{"game": "touched-on", "type": "match.started", "options": {"max_journeys": 40, "max_turns_per_journey": 200}, "players": ["ada", "grace"], "rules_version": "1", "seed_commitment": "bfc7fc87b06e12010d2a23bd890c7f2f60e3ec4f84d6f72542afac6fb4417757"}', NULL, NULL, NULL, '2026-11-26 19:03:10.412173+00', '0000000000000000000000000000000000000000000000000000000000000000', '7e3d88a8cc2c8f420e9d8fa798e3b382fb41c17448d5dbc64cddd17664f3b6a0');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (73, '344eb913-e8d7-4517-9904-42c3021753e5', 2, 'touched-on.game-set-up', '{"type": "touched-on.game-set-up", "lines": ["L1", "L2"], "seats": 2, "dealer": 1, "exp_pile": ["XP-07", "XP-05", "XP-08", "XP-11", "XP-09", "XP-02", "XP-03", "XP-04", "XP-12", "XP-01", "XP-06", "XP-10"], "exp_count": 12, "max_journeys": 40, "max_turns_per_journey": 200}', NULL, NULL, NULL, '2026-11-26 19:03:10.412173+00', '7e3d88a8cc2c8f420e9d8fa798e3b382fb41c17448d5dbc64cddd17664f3b6a0', '42e8a249d4687c5efc8bb1948a8ceed70275a456dac757d5f3d10f6343a3177d');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (56, '3b1361e3-ce83-4085-b6c4-80c190fb7544', 10, 'terminus.year-began', '{"type": "terminus.year-began", "year": 1}', 1, '{"plot": "P03", "type": "terminus.place-hub"}', 'auto-e6e08918-7088-41c8-a0c7-dd9da986fbe6', '2026-11-26 19:03:09.734064+00', '15aef63e752830899f31864b806a770076bd3d4f7ae6a3378e903c4da19aec73', 'f3cb6ef863de4339f3520f6de0007764756acd3b6b90cbbe43c2aa73acdc93e9');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (58, '3b1361e3-ce83-4085-b6c4-80c190fb7544', 12, 'terminus.bonus-chosen', '{"seat": 0, "type": "terminus.bonus-chosen", "option": 1}', 0, '{"type": "terminus.choose-bonus", "option": 1}', 'auto-b8dbbf44-e68e-4bcf-bda8-7ef0555ba191', '2026-11-26 19:03:09.882986+00', 'ded95dd75c7a3e224d7dca6513a46f442a0cff4d9bb392eec7eb8d06adb72da8', '01f295018758cc8aedad4068f01260dce9bd522dfa8e44afa9964aae6246183f');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (59, '3b1361e3-ce83-4085-b6c4-80c190fb7544', 13, 'terminus.income-began', '{"type": "terminus.income-began", "steps": [["bonus", 1], ["bonus", 0], ["budget", -1]], "bonuses": [1, 3]}', 0, '{"type": "terminus.choose-bonus", "option": 1}', 'auto-b8dbbf44-e68e-4bcf-bda8-7ef0555ba191', '2026-11-26 19:03:09.882986+00', '01f295018758cc8aedad4068f01260dce9bd522dfa8e44afa9964aae6246183f', '69308db8437d9004089d9d4b028dcf961235352aadb4af58c5e48acb7e4b3612');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (60, '3b1361e3-ce83-4085-b6c4-80c190fb7544', 14, 'terminus.bonus-collected', '{"seat": 1, "take": [1, 0, 0, 0], "type": "terminus.bonus-collected", "coins": 0, "rails": 3, "option": 3, "alternate": false}', 0, '{"type": "terminus.choose-bonus", "option": 1}', 'auto-b8dbbf44-e68e-4bcf-bda8-7ef0555ba191', '2026-11-26 19:03:09.882986+00', '69308db8437d9004089d9d4b028dcf961235352aadb4af58c5e48acb7e4b3612', 'e0563a1e285b87dbd2da626ba04649b017c104404ec67cd1c80d2e702a449343');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (61, '3b1361e3-ce83-4085-b6c4-80c190fb7544', 15, 'terminus.bonus-collected', '{"seat": 0, "take": [0, 1, 0, 2], "type": "terminus.bonus-collected", "coins": 0, "rails": 0, "option": 1, "alternate": false}', 0, '{"type": "terminus.choose-bonus", "option": 1}', 'auto-b8dbbf44-e68e-4bcf-bda8-7ef0555ba191', '2026-11-26 19:03:09.882986+00', 'e0563a1e285b87dbd2da626ba04649b017c104404ec67cd1c80d2e702a449343', '5539cc5e735134da11121177806bb25d3a32d17cf726efd7ed722e52fdb9a3bb');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (62, '3b1361e3-ce83-4085-b6c4-80c190fb7544', 16, 'terminus.budget-paid', '{"type": "terminus.budget-paid", "coins": [12, 12]}', 0, '{"type": "terminus.choose-bonus", "option": 1}', 'auto-b8dbbf44-e68e-4bcf-bda8-7ef0555ba191', '2026-11-26 19:03:09.882986+00', '5539cc5e735134da11121177806bb25d3a32d17cf726efd7ed722e52fdb9a3bb', '1e55e1287c6f8783a539fcbb37a1419ef140dfb239ee4f3076bc5dcdcb2f54ad');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (63, '3b1361e3-ce83-4085-b6c4-80c190fb7544', 17, 'terminus.loop-opened', '{"type": "terminus.loop-opened"}', 0, '{"type": "terminus.choose-bonus", "option": 1}', 'auto-b8dbbf44-e68e-4bcf-bda8-7ef0555ba191', '2026-11-26 19:03:09.882986+00', '1e55e1287c6f8783a539fcbb37a1419ef140dfb239ee4f3076bc5dcdcb2f54ad', 'a9e3ac469dbc3a76f81a7a9ce8f632856bc3526bcef45774e72a203080c98176');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (68, '7432a393-68e0-469e-b048-7bcc73328735', 5, 'mass-transit.card-placed', '{"card": "MT36", "seat": 0, "type": "mass-transit.card-placed", "route": 3, "position": 0}', 0, '{"card": "MT36", "type": "mass-transit.place-card", "route": 3}', 'auto-2368ab48-16db-4d3a-a4f8-0bc9f56a90bd', '2026-11-26 19:03:10.157429+00', '84d909bd3459abab21030b46b5d58ae9ec152a10d0a85e6cd16b2edf70e25125', '996b20f50913d28fb07244e0cc7f95c057d77b7ab398032a46ec80158565d411');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (76, '344eb913-e8d7-4517-9904-42c3021753e5', 5, 'touched-on.peak-hour-played', '{"card": "PW-05", "seat": 0, "type": "touched-on.peak-hour-played"}', 0, '{"type": "touched-on.peak-hour"}', 'auto-0e30271e-10c3-467a-8279-83017f788bca', '2026-11-26 19:03:10.488324+00', '353bf72c00cd7cf5b08e70c58366171e25ce123164da1eec855965fb8e0f20c7', 'c626aaf2ece7ad037797836937faeb33ad4471539d6f77f28ce5be700c083f15');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (78, '344eb913-e8d7-4517-9904-42c3021753e5', 7, 'touched-on.turn-ended', '{"seat": 0, "type": "touched-on.turn-ended"}', 0, '{"type": "touched-on.end-turn"}', 'auto-8418531f-dfeb-4a48-ab32-055e0ef8e461', '2026-11-26 19:03:10.630097+00', '70cf76be9db1b582cced8ce696399f43db9a8d3d05e92317b830cb3d5be31331', '12a2a2ed88f02153d002dd9c6f1f4abfce2f9aaa892fdacc8318ea577fb29c07');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (79, '344eb913-e8d7-4517-9904-42c3021753e5', 8, 'touched-on.turn-started', '{"seat": 1, "type": "touched-on.turn-started"}', 0, '{"type": "touched-on.end-turn"}', 'auto-8418531f-dfeb-4a48-ab32-055e0ef8e461', '2026-11-26 19:03:10.630097+00', '12a2a2ed88f02153d002dd9c6f1f4abfce2f9aaa892fdacc8318ea577fb29c07', '48f6cb5a83c8eb1f2417eacab0438c67dac18cb3139dd125096dc74177da1109');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (83, '344eb913-e8d7-4517-9904-42c3021753e5', 12, 'touched-on.evaders-played', '{"line": "L2", "seat": 0, "type": "touched-on.evaders-played", "cards": ["EV-L2-5", "PW-03"], "new_carriage": true}', 0, '{"line": "L2", "type": "touched-on.play-evaders", "count": 1, "priority_seat": true}', 'auto-76e06766-5c34-41dc-80d4-bb36b885513f', '2026-11-26 19:03:10.859991+00', 'a14b005e58681f023f12a34d8e7c124646b1ccb4687c50a6ec640d92bcfe0920', 'cd00aa4ba1cde5fb34a498e7f6b4c235081be75e0254b3d3b3d648b9a34e6932');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (66, '7432a393-68e0-469e-b048-7bcc73328735', 3, 'mass-transit.card-placed', '{"card": "MT10", "seat": 0, "type": "mass-transit.card-placed", "route": 2, "position": 0}', 0, '{"card": "MT10", "type": "mass-transit.place-card", "route": 2}', 'auto-d5c18ab1-2514-4d70-91cd-1afe668370c8', '2026-11-26 19:03:10.053578+00', '6e01b721ea609830267f7bf94754d6ccee506d2bc997aa285bc778d390c63116', '97778f75be11f2c4c871a09761a0c6772d69feafdb6207b16704b4337fc31ed1');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (71, '7432a393-68e0-469e-b048-7bcc73328735', 8, 'mass-transit.card-placed', '{"card": "MT24", "seat": 1, "type": "mass-transit.card-placed", "route": 5, "position": 0}', 1, '{"card": "MT24", "type": "mass-transit.place-card", "route": 5}', 'auto-25e597cb-85e2-440a-9850-6c3e4945bffa', '2026-11-26 19:03:10.348222+00', 'a56abb90047e60631bf538494887f357113234f49b1e6f8cca3369d7505fc532', 'c836361e8f7ce20e041b55745528ea106b998d139b4f9fad70443b71a96df8f5');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (80, '344eb913-e8d7-4517-9904-42c3021753e5', 9, 'touched-on.evaders-played', '{"line": "L1", "seat": 1, "type": "touched-on.evaders-played", "cards": ["EV-L1-3"], "new_carriage": false}', 1, '{"line": "L1", "type": "touched-on.play-evaders", "count": 1, "priority_seat": false}', 'auto-7720c2f1-e701-48b0-a6e7-c8395c70d283', '2026-11-26 19:03:10.703053+00', '48f6cb5a83c8eb1f2417eacab0438c67dac18cb3139dd125096dc74177da1109', '308b843a8617cf838cc5e74dd1058a8ae0bfb811cb93cd67154610409184a69e');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (74, '344eb913-e8d7-4517-9904-42c3021753e5', 3, 'touched-on.journey-dealt', '{"type": "touched-on.journey-dealt", "hands": [["PW-05", "PW-03", "EV-L2-6", "UC-2", "AU-L2", "EV-L1-2", "EV-L2-5", "EV-L2-9", "EV-L1-4", "EV-L1-1", "AU-L1"], ["PW-02", "PW-04", "EV-L1-5", "EV-L1-3", "EV-L1-8", "EV-L1-9", "EV-L2-8", "UC-1", "EV-L2-1", "EV-L1-6", "EV-L2-3"]], "dealer": 1, "journey": 1, "draw_pile": ["EV-L2-2", "EV-L1-7", "EV-L2-4", "EV-L2-7", "PW-06", "PW-01"], "draw_size": 6, "hand_sizes": [11, 11]}', NULL, NULL, NULL, '2026-11-26 19:03:10.412173+00', '42e8a249d4687c5efc8bb1948a8ceed70275a456dac757d5f3d10f6343a3177d', '125644351142d31fd2264897ce009bb3422e09691273cbc7a2f8176b7e010a1a');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (75, '344eb913-e8d7-4517-9904-42c3021753e5', 4, 'touched-on.turn-started', '{"seat": 0, "type": "touched-on.turn-started"}', NULL, NULL, NULL, '2026-11-26 19:03:10.412173+00', '125644351142d31fd2264897ce009bb3422e09691273cbc7a2f8176b7e010a1a', '353bf72c00cd7cf5b08e70c58366171e25ce123164da1eec855965fb8e0f20c7');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (77, '344eb913-e8d7-4517-9904-42c3021753e5', 6, 'touched-on.evaders-played', '{"line": "L1", "seat": 0, "type": "touched-on.evaders-played", "cards": ["EV-L1-1", "EV-L1-2"], "new_carriage": true}', 0, '{"line": "L1", "type": "touched-on.play-evaders", "count": 2, "priority_seat": false}', 'auto-81ea2fd5-b63d-4f3b-9582-c755651a6c32', '2026-11-26 19:03:10.570408+00', 'c626aaf2ece7ad037797836937faeb33ad4471539d6f77f28ce5be700c083f15', '70cf76be9db1b582cced8ce696399f43db9a8d3d05e92317b830cb3d5be31331');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (81, '344eb913-e8d7-4517-9904-42c3021753e5', 10, 'touched-on.turn-ended', '{"seat": 1, "type": "touched-on.turn-ended"}', 1, '{"type": "touched-on.end-turn"}', 'auto-3c22dbb7-c78b-49d5-9993-580580b7bf40', '2026-11-26 19:03:10.766937+00', '308b843a8617cf838cc5e74dd1058a8ae0bfb811cb93cd67154610409184a69e', '99a83cd37cd9fd01814f85a1ff1d496f3f722473dfc52ce06b7d57a9179d017a');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (82, '344eb913-e8d7-4517-9904-42c3021753e5', 11, 'touched-on.turn-started', '{"seat": 0, "type": "touched-on.turn-started"}', 1, '{"type": "touched-on.end-turn"}', 'auto-3c22dbb7-c78b-49d5-9993-580580b7bf40', '2026-11-26 19:03:10.766937+00', '99a83cd37cd9fd01814f85a1ff1d496f3f722473dfc52ce06b7d57a9179d017a', 'a14b005e58681f023f12a34d8e7c124646b1ccb4687c50a6ec640d92bcfe0920');


--
-- Data for Name: matches; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.matches VALUES ('9786d0b9-719a-4673-8aa9-ed5caf48d8d8', 'metro-x', '1', '[{"seat": 0, "player": "ada", "token_hash": "5c5a6cddd3b99aa1e75c559042afc0735959f15d371a3728fa85ab2305af5e77"}, {"seat": 1, "player": "grace", "token_hash": "fc14a1ea14bab7738fea59b6fe0674a8c07e5aabc7f6365cdae36d2b45d7451c"}]', '{"map": "metro-city"}', 'ac13c4e4824d0dccef2492591b77edb6fdc86f0b61d4d4d7ac891a9f61629413', '022416c797a657de5d026c6952e7ebd80e3d62f974caaa182fcb01da7c4837d3', 'active', 15, '2026-11-26 19:03:08.918384+00', '2026-11-26 19:03:09.318971+00', '9af62c8bd6a9ada40aac7470b557c97e828f87fc0dacd10b8c3e05ddde871a8d');
INSERT INTO public.matches VALUES ('e61adfd1-21e1-4254-b818-15964f2ed352', 'expect-delays', '1', '[{"seat": 0, "player": "ada", "token_hash": "434cf5db82ee42a0bbbf153e8ba152f54454aa60d23148a71e532c07745fae30"}, {"seat": 1, "player": "grace", "token_hash": "4f6d352caa6761ec85075af1fce7ede717547a13f6d60ea8bc42a73088fad849"}]', '{"max_turns": 300}', '879c631692b2e2413fcd49436ecddfac37fa30ff181d2bbfc3fc77e71606dd68', 'f0ba12e7030581f2679139188f07ac33ad9cc93df442a7765ca026ac8cab8ccb', 'active', 31, '2026-11-26 19:03:08.048561+00', '2026-11-26 19:03:08.845822+00', '094862382b524afe0d3a2f666cdf93667e8d8270ec44483fe1b85c3ad9d8bfbf');
INSERT INTO public.matches VALUES ('344eb913-e8d7-4517-9904-42c3021753e5', 'touched-on', '1', '[{"seat": 0, "player": "ada", "token_hash": "8d5d6397ac655e97812752024acfdd6588c13f60d347e8e3e44abe66072eb534"}, {"seat": 1, "player": "grace", "token_hash": "901b8a7cb9f682f0dd643ba342d4b7864ed5178e2d65e77c530a5709bc96accd"}]', '{"max_journeys": 40, "max_turns_per_journey": 200}', 'f1175ad6670f104a2ec6868e0c13fbe2b2654c1229ff63b34548d2709e21ba81', 'bfc7fc87b06e12010d2a23bd890c7f2f60e3ec4f84d6f72542afac6fb4417757', 'active', 12, '2026-11-26 19:03:10.412173+00', '2026-11-26 19:03:10.859991+00', 'cd00aa4ba1cde5fb34a498e7f6b4c235081be75e0254b3d3b3d648b9a34e6932');
INSERT INTO public.matches VALUES ('3b1361e3-ce83-4085-b6c4-80c190fb7544', 'terminus', '1', '[{"seat": 0, "player": "ada", "token_hash": "585c833d574de0f18dff43316d55ee9715d39f5b78f2b202cfc0d91291313b99"}, {"seat": 1, "player": "grace", "token_hash": "5a0f7a169a4d4aa2a7de35310010a361ecca8130b2330161fe6c54a481616e20"}]', '{"board": "default", "automa": false, "first_game": false}', '6b2c810071d53c3739b88c75eda672fdcceac99152bea494185206af1ae67496', '3558f317e029ac5b075bbec5a193691a4f7439ef9a17a834c4b17fceb69553ac', 'active', 17, '2026-11-26 19:03:09.42665+00', '2026-11-26 19:03:09.882986+00', 'a9e3ac469dbc3a76f81a7a9ce8f632856bc3526bcef45774e72a203080c98176');
INSERT INTO public.matches VALUES ('7432a393-68e0-469e-b048-7bcc73328735', 'mass-transit', '1', '[{"seat": 0, "player": "ada", "token_hash": "2a834af06df1a263ea11e1aa5eeb4cfeab27eeb80aee00afc780d48bfe38ce1c"}, {"seat": 1, "player": "grace", "token_hash": "a2f62c1883384bdfbd0f9e128dcfe34e6f70a9ca132c4699bc51ff50a18cd3c2"}]', '{"first_seat": 0}', '367bb4218226cac6ee72f5ec318547cb6d9755853eda09f43607ca2220d3bc1f', 'cb1a5a33573005c3ea87bd891842148a6ae95f86202497b594a7ad1f38450611', 'active', 8, '2026-11-26 19:03:09.965247+00', '2026-11-26 19:03:10.348222+00', 'c836361e8f7ce20e041b55745528ea106b998d139b4f9fad70443b71a96df8f5');


--
-- Data for Name: projection_checkpoints; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.projection_checkpoints VALUES ('ratings', 1, 83, NULL, NULL, '2026-11-26 19:03:10.892538+00');
INSERT INTO public.projection_checkpoints VALUES ('match-summaries', 1, 83, NULL, NULL, '2026-11-26 19:03:10.950536+00');
INSERT INTO public.projection_checkpoints VALUES ('player-stats', 1, 83, NULL, NULL, '2026-11-26 19:03:11.032496+00');
INSERT INTO public.projection_checkpoints VALUES ('game-stats', 1, 83, NULL, NULL, '2026-11-26 19:03:11.129842+00');


--
-- Data for Name: projection_docs; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.projection_docs VALUES ('player-stats', 'match', 'e61adfd1-21e1-4254-b818-15964f2ed352', '{"game": "expect-delays", "moves": 0, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:08.048561Z", "last_command": null}', 'expect-delays', 0);
INSERT INTO public.projection_docs VALUES ('game-stats', 'game', 'expect-delays', '{"game": "expect-delays", "scores": {}, "started": 1, "finished": 0, "position": 1, "moves_max": null, "moves_min": null, "end_reasons": {}, "moves_total": 0, "solo_scores": {}, "wins_by_seat": {}, "cooperative_won": 0, "finished_by_seats": {}, "cooperative_played": 0}', '', 0);
INSERT INTO public.projection_docs VALUES ('ratings', 'match', 'e61adfd1-21e1-4254-b818-15964f2ed352', '{"game": "expect-delays", "moves": 0, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:08.048561Z", "last_command": null}', 'expect-delays', 0);
INSERT INTO public.projection_docs VALUES ('match-summaries', 'match', '7432a393-68e0-469e-b048-7bcc73328735', '{"game": "mass-transit", "moves": 6, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:09.965247Z", "last_command": "auto-25e597cb-85e2-440a-9850-6c3e4945bffa"}', 'mass-transit', 0);
INSERT INTO public.projection_docs VALUES ('match-summaries', 'match', '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', '{"game": "metro-x", "moves": 6, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:08.918384Z", "last_command": "auto-8d290c1c-99bb-4e2d-aa2d-4ff5e253ece2"}', 'metro-x', 0);
INSERT INTO public.projection_docs VALUES ('match-summaries', 'summary', '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', '{"game": "metro-x", "moves": 6, "status": "active", "players": ["ada", "grace"], "results": [], "version": 15, "ended_at": null, "match_id": "9786d0b9-719a-4673-8aa9-ed5caf48d8d8", "position": 46, "team_won": null, "end_reason": null, "started_at": "2026-11-26T19:03:08.918384Z", "cooperative": false, "duration_seconds": null}', 'metro-x', 0);
INSERT INTO public.projection_docs VALUES ('player-stats', 'match', '3b1361e3-ce83-4085-b6c4-80c190fb7544', '{"game": "terminus", "moves": 0, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:09.426650Z", "last_command": null}', 'terminus', 0);
INSERT INTO public.projection_docs VALUES ('ratings', 'match', '3b1361e3-ce83-4085-b6c4-80c190fb7544', '{"game": "terminus", "moves": 0, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:09.426650Z", "last_command": null}', 'terminus', 0);
INSERT INTO public.projection_docs VALUES ('game-stats', 'match', 'e61adfd1-21e1-4254-b818-15964f2ed352', '{"game": "expect-delays", "moves": 6, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:08.048561Z", "last_command": "auto-4a29b10e-0c59-4ac6-9bb7-4b251010fbf2"}', '', 0);
INSERT INTO public.projection_docs VALUES ('ratings', 'match', '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', '{"game": "metro-x", "moves": 0, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:08.918384Z", "last_command": null}', 'metro-x', 0);
INSERT INTO public.projection_docs VALUES ('match-summaries', 'match', 'e61adfd1-21e1-4254-b818-15964f2ed352', '{"game": "expect-delays", "moves": 6, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:08.048561Z", "last_command": "auto-4a29b10e-0c59-4ac6-9bb7-4b251010fbf2"}', 'expect-delays', 0);
INSERT INTO public.projection_docs VALUES ('match-summaries', 'summary', 'e61adfd1-21e1-4254-b818-15964f2ed352', '{"game": "expect-delays", "moves": 6, "status": "active", "players": ["ada", "grace"], "results": [], "version": 31, "ended_at": null, "match_id": "e61adfd1-21e1-4254-b818-15964f2ed352", "position": 31, "team_won": null, "end_reason": null, "started_at": "2026-11-26T19:03:08.048561Z", "cooperative": false, "duration_seconds": null}', 'expect-delays', 0);
INSERT INTO public.projection_docs VALUES ('player-stats', 'match', '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', '{"game": "metro-x", "moves": 0, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:08.918384Z", "last_command": null}', 'metro-x', 0);
INSERT INTO public.projection_docs VALUES ('match-summaries', 'summary', '7432a393-68e0-469e-b048-7bcc73328735', '{"game": "mass-transit", "moves": 6, "status": "active", "players": ["ada", "grace"], "results": [], "version": 8, "ended_at": null, "match_id": "7432a393-68e0-469e-b048-7bcc73328735", "position": 71, "team_won": null, "end_reason": null, "started_at": "2026-11-26T19:03:09.965247Z", "cooperative": false, "duration_seconds": null}', 'mass-transit', 0);
INSERT INTO public.projection_docs VALUES ('match-summaries', 'match', '3b1361e3-ce83-4085-b6c4-80c190fb7544', '{"game": "terminus", "moves": 6, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:09.426650Z", "last_command": "auto-b8dbbf44-e68e-4bcf-bda8-7ef0555ba191"}', 'terminus', 0);
INSERT INTO public.projection_docs VALUES ('match-summaries', 'summary', '3b1361e3-ce83-4085-b6c4-80c190fb7544', '{"game": "terminus", "moves": 6, "status": "active", "players": ["ada", "grace"], "results": [], "version": 17, "ended_at": null, "match_id": "3b1361e3-ce83-4085-b6c4-80c190fb7544", "position": 63, "team_won": null, "end_reason": null, "started_at": "2026-11-26T19:03:09.426650Z", "cooperative": false, "duration_seconds": null}', 'terminus', 0);
INSERT INTO public.projection_docs VALUES ('game-stats', 'game', 'metro-x', '{"game": "metro-x", "scores": {}, "started": 1, "finished": 0, "position": 32, "moves_max": null, "moves_min": null, "end_reasons": {}, "moves_total": 0, "solo_scores": {}, "wins_by_seat": {}, "cooperative_won": 0, "finished_by_seats": {}, "cooperative_played": 0}', '', 0);
INSERT INTO public.projection_docs VALUES ('game-stats', 'match', '9786d0b9-719a-4673-8aa9-ed5caf48d8d8', '{"game": "metro-x", "moves": 6, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:08.918384Z", "last_command": "auto-8d290c1c-99bb-4e2d-aa2d-4ff5e253ece2"}', '', 0);
INSERT INTO public.projection_docs VALUES ('game-stats', 'game', 'terminus', '{"game": "terminus", "scores": {}, "started": 1, "finished": 0, "position": 47, "moves_max": null, "moves_min": null, "end_reasons": {}, "moves_total": 0, "solo_scores": {}, "wins_by_seat": {}, "cooperative_won": 0, "finished_by_seats": {}, "cooperative_played": 0}', '', 0);
INSERT INTO public.projection_docs VALUES ('game-stats', 'match', '3b1361e3-ce83-4085-b6c4-80c190fb7544', '{"game": "terminus", "moves": 6, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:09.426650Z", "last_command": "auto-b8dbbf44-e68e-4bcf-bda8-7ef0555ba191"}', '', 0);
INSERT INTO public.projection_docs VALUES ('ratings', 'match', '7432a393-68e0-469e-b048-7bcc73328735', '{"game": "mass-transit", "moves": 0, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:09.965247Z", "last_command": null}', 'mass-transit', 0);
INSERT INTO public.projection_docs VALUES ('ratings', 'match', '344eb913-e8d7-4517-9904-42c3021753e5', '{"game": "touched-on", "moves": 0, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:10.412173Z", "last_command": null}', 'touched-on', 0);
INSERT INTO public.projection_docs VALUES ('match-summaries', 'match', '344eb913-e8d7-4517-9904-42c3021753e5', '{"game": "touched-on", "moves": 6, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:10.412173Z", "last_command": "auto-76e06766-5c34-41dc-80d4-bb36b885513f"}', 'touched-on', 0);
INSERT INTO public.projection_docs VALUES ('match-summaries', 'summary', '344eb913-e8d7-4517-9904-42c3021753e5', '{"game": "touched-on", "moves": 6, "status": "active", "players": ["ada", "grace"], "results": [], "version": 12, "ended_at": null, "match_id": "344eb913-e8d7-4517-9904-42c3021753e5", "position": 83, "team_won": null, "end_reason": null, "started_at": "2026-11-26T19:03:10.412173Z", "cooperative": false, "duration_seconds": null}', 'touched-on', 0);
INSERT INTO public.projection_docs VALUES ('player-stats', 'match', '7432a393-68e0-469e-b048-7bcc73328735', '{"game": "mass-transit", "moves": 0, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:09.965247Z", "last_command": null}', 'mass-transit', 0);
INSERT INTO public.projection_docs VALUES ('game-stats', 'game', 'mass-transit', '{"game": "mass-transit", "scores": {}, "started": 1, "finished": 0, "position": 64, "moves_max": null, "moves_min": null, "end_reasons": {}, "moves_total": 0, "solo_scores": {}, "wins_by_seat": {}, "cooperative_won": 0, "finished_by_seats": {}, "cooperative_played": 0}', '', 0);
INSERT INTO public.projection_docs VALUES ('player-stats', 'match', '344eb913-e8d7-4517-9904-42c3021753e5', '{"game": "touched-on", "moves": 0, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:10.412173Z", "last_command": null}', 'touched-on', 0);
INSERT INTO public.projection_docs VALUES ('game-stats', 'match', '7432a393-68e0-469e-b048-7bcc73328735', '{"game": "mass-transit", "moves": 6, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:09.965247Z", "last_command": "auto-25e597cb-85e2-440a-9850-6c3e4945bffa"}', '', 0);
INSERT INTO public.projection_docs VALUES ('game-stats', 'game', 'touched-on', '{"game": "touched-on", "scores": {}, "started": 1, "finished": 0, "position": 72, "moves_max": null, "moves_min": null, "end_reasons": {}, "moves_total": 0, "solo_scores": {}, "wins_by_seat": {}, "cooperative_won": 0, "finished_by_seats": {}, "cooperative_played": 0}', '', 0);
INSERT INTO public.projection_docs VALUES ('game-stats', 'match', '344eb913-e8d7-4517-9904-42c3021753e5', '{"game": "touched-on", "moves": 6, "players": ["ada", "grace"], "resigned": [], "started_at": "2026-11-26T19:03:10.412173Z", "last_command": "auto-76e06766-5c34-41dc-80d4-bb36b885513f"}', '', 0);


--
-- Data for Name: schema_migrations; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.schema_migrations VALUES (1, 'initial', '2026-11-26 19:02:56.489248+00');
INSERT INTO public.schema_migrations VALUES (2, 'read_models', '2026-11-26 19:02:56.489248+00');


--
-- Name: events_position_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.events_position_seq', 83, true);


--
-- Name: app_keys app_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.app_keys
    ADD CONSTRAINT app_keys_pkey PRIMARY KEY (key_hash);


--
-- Name: commands commands_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.commands
    ADD CONSTRAINT commands_pkey PRIMARY KEY (match_id, command_id);


--
-- Name: events events_match_version_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_match_version_key UNIQUE (match_id, version);


--
-- Name: events events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_pkey PRIMARY KEY ("position");


--
-- Name: matches matches_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.matches
    ADD CONSTRAINT matches_pkey PRIMARY KEY (id);


--
-- Name: projection_checkpoints projection_checkpoints_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.projection_checkpoints
    ADD CONSTRAINT projection_checkpoints_pkey PRIMARY KEY (projection);


--
-- Name: projection_docs projection_docs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.projection_docs
    ADD CONSTRAINT projection_docs_pkey PRIMARY KEY (projection, kind, key);


--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (number);


--
-- Name: matches_created_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX matches_created_idx ON public.matches USING btree (created_at DESC, id DESC);


--
-- Name: matches_game_created_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX matches_game_created_idx ON public.matches USING btree (game, created_at DESC, id DESC);


--
-- Name: matches_seats_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX matches_seats_idx ON public.matches USING gin (seats jsonb_path_ops);


--
-- Name: matches_status_created_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX matches_status_created_idx ON public.matches USING btree (status, created_at DESC, id DESC);


--
-- Name: projection_docs_group_rank_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX projection_docs_group_rank_idx ON public.projection_docs USING btree (projection, kind, grp, rank DESC, key);


--
-- Name: commands commands_immutable; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER commands_immutable BEFORE DELETE OR UPDATE ON public.commands FOR EACH ROW EXECUTE FUNCTION public.turnstile_refuse_change();


--
-- Name: events events_immutable; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER events_immutable BEFORE DELETE OR UPDATE ON public.events FOR EACH ROW EXECUTE FUNCTION public.turnstile_refuse_change();


--
-- Name: events events_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON public.events FOR EACH STATEMENT EXECUTE FUNCTION public.turnstile_refuse_change();


--
-- Name: commands commands_match_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.commands
    ADD CONSTRAINT commands_match_id_fkey FOREIGN KEY (match_id) REFERENCES public.matches(id);


--
-- Name: events events_match_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_match_id_fkey FOREIGN KEY (match_id) REFERENCES public.matches(id);


--
-- PostgreSQL database dump complete
--


