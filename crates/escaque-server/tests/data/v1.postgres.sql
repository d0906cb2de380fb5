--
-- PostgreSQL database dump
--

\restrict qmPLAqFhGoFT1I1w732lgQHp6A46P63ri5Ro5yVVvrf0Ec31FZusUXeZHUZGA95

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

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

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: games; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.games (
    id text NOT NULL,
    rules text NOT NULL,
    start_fen text NOT NULL,
    time_control text,
    white_kind text NOT NULL,
    black_kind text NOT NULL,
    white_owner text,
    black_owner text,
    white_secret text,
    black_secret text,
    white_name text NOT NULL,
    black_name text NOT NULL,
    status text NOT NULL,
    result text,
    termination text,
    clock_white_ms bigint,
    clock_black_ms bigint,
    created_ms bigint NOT NULL,
    updated_ms bigint NOT NULL
);


--
-- Name: meta; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.meta (
    key text NOT NULL,
    value text NOT NULL
);


--
-- Name: moves; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.moves (
    game_id text NOT NULL,
    ply bigint NOT NULL,
    uci text NOT NULL,
    clock_ms bigint,
    at_ms bigint NOT NULL
);


--
-- Name: sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sessions (
    token_hash text NOT NULL,
    user_id text NOT NULL,
    created_ms bigint NOT NULL
);


--
-- Name: users; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.users (
    id text NOT NULL,
    name text NOT NULL,
    name_key text NOT NULL,
    pass_hash text NOT NULL,
    created_ms bigint NOT NULL
);


--
-- Data for Name: games; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.games VALUES ('sbzcdirqx5a3brb4', 'FIDE 2023', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', NULL, 'human', 'human', 'u:d4r2wi7fnsfa65ch', 'u:8c3git73i4xcg2uh', 'e91e75b75c6f932e85f907bf2bd103d5427fe01beaa2a3bb4fc0ae9ae06b41b7', '40d328faa3f60d70dabff445d4f875afd368f9e1ea9f383e6d0f1b9df9eb78c9', 'Ana', 'Beto', 'over', '0-1', 'checkmate', NULL, NULL, 1795490309284, 1795490309387);
INSERT INTO public.games VALUES ('udwcd5pv4vnj6xpr', 'FIDE 2023', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '5+0', 'human', 'human', 'g:2da065fd198bc447d71fc659c5f2e4f3', 'g:d3107b9bf9edf1e9ab92c76ee8e226f2', 'd6ac84b6f0d76e3c58622c0f6a66ac3faff8882030305a53452ffc19dcfaa19e', '4c69be7692db9e1413cb97d00c462e6d2376b4b071c7b3616bf07bee60853d08', 'invitado-2da065', 'invitado-d3107b', 'over', '1/2-1/2', 'abandoned_draw:black', 299987, 299150, 1795490312093, 1795490313009);
INSERT INTO public.games VALUES ('hi6zkt7qxqknpeje', 'Londres 1846', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1', NULL, 'human', 'human', 'u:d4r2wi7fnsfa65ch', 'u:8c3git73i4xcg2uh', '5f637e511fd77cb817e1769c189be63160758b2a02a2a52ac4b233f1ac1b46ab', '7b5eadd54ccd6ad07201e0121914b9004f3a69f7bb4704d99608e75c7ad2de46', 'Ana', 'Beto', 'playing', NULL, NULL, NULL, NULL, 1795490313023, 1795490313029);
INSERT INTO public.games VALUES ('yygm843yy24ynjm3', 'FIDE 2023', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '5+3', 'human', 'human', 'u:8c3git73i4xcg2uh', 'u:d4r2wi7fnsfa65ch', 'dbda1636d7405b22cc7a452c25a3d2d1d52b2bef8aa3b4bbaa64140296b9e204', '935dc3a06e946a27360272a82bd93b3da5b0b9b4a15233a597622fa362b0741c', 'Beto', 'Ana', 'over', '1-0', 'resignation:black', 302998, 302999, 1795490309443, 1795490309500);
INSERT INTO public.games VALUES ('jdz3px3wkenfas66', 'FIDE 2023', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '10+5', 'human', 'human', 'u:d4r2wi7fnsfa65ch', 'u:8c3git73i4xcg2uh', '8e6c45cd1c699186579215221d4ac58c3d00f40a75a4563083a7d6067f30b3dc', 'a99b8bc835513da67f39cfa43f1224191bc3171dec59bbd4c0753642c5add480', 'Ana', 'Beto', 'over', '1/2-1/2', 'threefold_repetition', 619903, 619941, 1795490310563, 1795490310743);
INSERT INTO public.games VALUES ('37xbpri8pkdc28r8', 'FIDE 2023', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '1s', 'human', 'human', 'u:d4r2wi7fnsfa65ch', 'u:8c3git73i4xcg2uh', '7cd57f3ed9e718696b1fc578f3c3b7fbf9ac5e778fd03f2a507e601c9c2c8ea2', '886ca11e423acc5575d40827758426eeae2f8d15d94cf385111ebb4d0179f1fa', 'Ana', 'Beto', 'over', '0-1', 'time:white', 0, 999, 1795490309547, 1795490310558);
INSERT INTO public.games VALUES ('2qr9579n9y8b5akh', 'FIDE 2023', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', NULL, 'human', 'human', 'u:d4r2wi7fnsfa65ch', 'u:8c3git73i4xcg2uh', '1cae48de983c94c540ce892385b7fa7d37fd2db96e85de87c0557d503169531c', '15b66163f79aaca3fd3bc4fa38bd68116c981e5b2cc546a3ccc84aa05de1c213', 'Ana', 'Beto', 'over', '1/2-1/2', 'agreement', NULL, NULL, 1795490310798, 1795490310898);
INSERT INTO public.games VALUES ('26yc4r2yjskfcbt3', 'FIDE 2023', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', NULL, 'human', 'human', 'u:d4r2wi7fnsfa65ch', 'u:8c3git73i4xcg2uh', '45676982c6c35fda6f74467634b54671997864d5ce83352e4f082142ca1d9a16', '5ec621862ee7c1ec25a97cbb60c90d14c9ceeb20018b781ecaf912e02b86f3f5', 'Ana', 'Beto', 'over', '*', 'aborted', NULL, NULL, 1795490310947, 1795490311012);
INSERT INTO public.games VALUES ('k48qaikkbidfekir', 'FIDE 2023', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '5+0', 'human', 'human', 'g:2da065fd198bc447d71fc659c5f2e4f3', 'g:d3107b9bf9edf1e9ab92c76ee8e226f2', '6f37d4374292e303dae4d413209feb3f6cc192ff80c9cabebacc1057e0ba43e8', '8056c7dae69a496aaea8908c8df82bccea2e7150fee9d6a3eac8a5d4b5b980d9', 'invitado-2da065', 'invitado-d3107b', 'over', '0-1', 'abandoned:white', 299142, 299999, 1795490311211, 1795490312091);
INSERT INTO public.games VALUES ('s9qux9uvz2g452ne', 'Londres 1846', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1', NULL, 'human', 'human', 'u:d4r2wi7fnsfa65ch', 'u:8c3git73i4xcg2uh', '171822d1686ac376d7cdf07ef53188046e9b3d87a7e439a5087c7b462aff3cc9', '91cc10d558bd1dcfb27ded6acab2d41ef405fb80467e909b58509e78388875ed', 'Ana', 'Beto', 'over', '1-0', 'resignation:black', NULL, NULL, 1795490311023, 1795490311099);
INSERT INTO public.games VALUES ('cx6tjmiinnkhz32r', 'Londres 1846 (ahogado gana)', '7k/8/6K1/8/8/8/8/5Q2 w - - 0 1', NULL, 'human', 'human', 'g:2da065fd198bc447d71fc659c5f2e4f3', 'g:d3107b9bf9edf1e9ab92c76ee8e226f2', '1505e1d0cea13aed3f3c17e552376de970faad06599b95ddec0d72d6dde653f3', '228da9efa2e8499d15580772a5a9d221f5d27571f92d61f6bc60de6396257fd3', 'invitado-2da065', 'invitado-d3107b', 'over', '0-1', 'stalemate', NULL, NULL, 1795490311143, 1795490311167);
INSERT INTO public.games VALUES ('q4vrcuyfrt6vg9r9', 'FIDE 2023', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '15+10', 'human', 'human', 'u:8c3git73i4xcg2uh', 'u:d4r2wi7fnsfa65ch', '8287bd661982706c8214aa61fcfa3b7f9e50fea245ca4cc7a656c212b33001f3', 'e2083643e3f2100b500bc828278b4af8789c5bbab408791ede2bf169c4649ad9', 'Beto', 'Ana', 'playing', NULL, NULL, 909999, 909999, 1795490313149, 1795490313182);
INSERT INTO public.games VALUES ('5svzs2zn9hjcyffh', 'FIDE 2023', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', NULL, 'human', 'human', NULL, 'u:d4r2wi7fnsfa65ch', NULL, '957da56f7d0460f9d4b9d266f94bb527f4c9c1c1239a93552d478c18175e8b7b', '', 'Ana', 'waiting', NULL, NULL, NULL, NULL, 1795490313187, 1795490313187);


--
-- Data for Name: meta; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.meta VALUES ('schema_version', '1');


--
-- Data for Name: moves; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.moves VALUES ('sbzcdirqx5a3brb4', 0, 'f2f3', NULL, 1795490309338);
INSERT INTO public.moves VALUES ('sbzcdirqx5a3brb4', 1, 'e7e5', NULL, 1795490309340);
INSERT INTO public.moves VALUES ('sbzcdirqx5a3brb4', 2, 'g2g4', NULL, 1795490309341);
INSERT INTO public.moves VALUES ('sbzcdirqx5a3brb4', 3, 'd8h4', NULL, 1795490309387);
INSERT INTO public.moves VALUES ('yygm843yy24ynjm3', 0, 'd2d4', 303000, 1795490309456);
INSERT INTO public.moves VALUES ('yygm843yy24ynjm3', 1, 'd7d5', 302999, 1795490309499);
INSERT INTO public.moves VALUES ('37xbpri8pkdc28r8', 0, 'e2e4', 1000, 1795490309554);
INSERT INTO public.moves VALUES ('37xbpri8pkdc28r8', 1, 'e7e5', 999, 1795490309556);
INSERT INTO public.moves VALUES ('jdz3px3wkenfas66', 0, 'g1f3', 605000, 1795490310580);
INSERT INTO public.moves VALUES ('jdz3px3wkenfas66', 1, 'g8f6', 604999, 1795490310581);
INSERT INTO public.moves VALUES ('jdz3px3wkenfas66', 2, 'f3g1', 609999, 1795490310582);
INSERT INTO public.moves VALUES ('jdz3px3wkenfas66', 3, 'f6g8', 609957, 1795490310627);
INSERT INTO public.moves VALUES ('jdz3px3wkenfas66', 4, 'g1f3', 614949, 1795490310679);
INSERT INTO public.moves VALUES ('jdz3px3wkenfas66', 5, 'g8f6', 614949, 1795490310687);
INSERT INTO public.moves VALUES ('jdz3px3wkenfas66', 6, 'f3g1', 619903, 1795490310735);
INSERT INTO public.moves VALUES ('jdz3px3wkenfas66', 7, 'f6g8', 619941, 1795490310743);
INSERT INTO public.moves VALUES ('2qr9579n9y8b5akh', 0, 'e2e4', NULL, 1795490310831);
INSERT INTO public.moves VALUES ('2qr9579n9y8b5akh', 1, 'c7c5', NULL, 1795490310839);
INSERT INTO public.moves VALUES ('26yc4r2yjskfcbt3', 0, 'e2e4', NULL, 1795490310968);
INSERT INTO public.moves VALUES ('s9qux9uvz2g452ne', 0, 'e2e4', NULL, 1795490311036);
INSERT INTO public.moves VALUES ('s9qux9uvz2g452ne', 1, 'e7e5', NULL, 1795490311047);
INSERT INTO public.moves VALUES ('s9qux9uvz2g452ne', 2, 'g1f3', NULL, 1795490311058);
INSERT INTO public.moves VALUES ('cx6tjmiinnkhz32r', 0, 'f1f7', NULL, 1795490311167);
INSERT INTO public.moves VALUES ('k48qaikkbidfekir', 0, 'e2e4', 300000, 1795490311232);
INSERT INTO public.moves VALUES ('k48qaikkbidfekir', 1, 'e7e5', 299999, 1795490311233);
INSERT INTO public.moves VALUES ('udwcd5pv4vnj6xpr', 0, 'd2d4', 300000, 1795490312104);
INSERT INTO public.moves VALUES ('udwcd5pv4vnj6xpr', 1, 'd7d5', 299999, 1795490312154);
INSERT INTO public.moves VALUES ('udwcd5pv4vnj6xpr', 2, 'c2c4', 299987, 1795490312159);
INSERT INTO public.moves VALUES ('hi6zkt7qxqknpeje', 0, 'e2e4', NULL, 1795490313042);
INSERT INTO public.moves VALUES ('hi6zkt7qxqknpeje', 1, 'e7e5', NULL, 1795490313051);
INSERT INTO public.moves VALUES ('hi6zkt7qxqknpeje', 2, 'g1f3', NULL, 1795490313066);
INSERT INTO public.moves VALUES ('hi6zkt7qxqknpeje', 3, 'b8c6', NULL, 1795490313099);
INSERT INTO public.moves VALUES ('q4vrcuyfrt6vg9r9', 0, 'c2c4', 910000, 1795490313167);
INSERT INTO public.moves VALUES ('q4vrcuyfrt6vg9r9', 1, 'e7e5', 909999, 1795490313182);


--
-- Data for Name: sessions; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.sessions VALUES ('3b0caf6ad11b884e3961a5880d02d5d8d5c5e7f394b0287e2f7965d01503bfd4', 'd4r2wi7fnsfa65ch', 1795490309246);
INSERT INTO public.sessions VALUES ('e5a62a9c263de38c4d33fc72a08acf84b9105cfebb9c481c49e9126c53711e39', '8c3git73i4xcg2uh', 1795490309282);


--
-- Data for Name: users; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.users VALUES ('d4r2wi7fnsfa65ch', 'Ana', 'ana', '$argon2id$v=19$m=19456,t=2,p=1$THeaeAcvRy3bnHUgLfT3fw$IpbO0Xn2JKpnBOPlRBAdareaax1QvqKNiS0RX9d6pLY', 1795490309244);
INSERT INTO public.users VALUES ('8c3git73i4xcg2uh', 'Beto', 'beto', '$argon2id$v=19$m=19456,t=2,p=1$5dU1pvcP6vbdRXBpNYrB8w$PpS9W/TG1tIF8w3U9cWubA/CwDp7LPmXFwlCYJcRZx8', 1795490309276);


--
-- Name: games games_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.games
    ADD CONSTRAINT games_pkey PRIMARY KEY (id);


--
-- Name: meta meta_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meta
    ADD CONSTRAINT meta_pkey PRIMARY KEY (key);


--
-- Name: moves moves_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.moves
    ADD CONSTRAINT moves_pkey PRIMARY KEY (game_id, ply);


--
-- Name: sessions sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_pkey PRIMARY KEY (token_hash);


--
-- Name: users users_name_key_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_name_key_key UNIQUE (name_key);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);


--
-- Name: games_black_owner; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX games_black_owner ON public.games USING btree (black_owner);


--
-- Name: games_status; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX games_status ON public.games USING btree (status);


--
-- Name: games_white_owner; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX games_white_owner ON public.games USING btree (white_owner);


--
-- PostgreSQL database dump complete
--

\unrestrict qmPLAqFhGoFT1I1w732lgQHp6A46P63ri5Ro5yVVvrf0Ec31FZusUXeZHUZGA95

